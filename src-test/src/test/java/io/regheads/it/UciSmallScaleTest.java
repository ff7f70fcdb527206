package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.data.Folds;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each distribution head on fold 0 of the real yacht data (308 rows, the decoding paper's protocol: x and y
 * rescaled on the training fold; NLL of y01 = train min-max scaled y, test y clipped into [0, 1] as the peer does).
 *
 * <p>The bounds were set from a first honest run (2026-11-22, seed 0, 2 x 64 encoder, up to 300 epochs with
 * early stopping with patience 20) with a margin, so a regression in any layer, loss, head or the trainer shows up here. Measured
 * then: see the comment on each row.
 */
class UciSmallScaleTest {

    static Stream<Arguments> heads() {
        return Stream.of(
                // measured: NLL -1.801, RMSE 0.0339 (y01 units)
                Arguments.of(new PointwiseSpec(false), -1.5, 0.05),
                // measured: NLL -0.436, RMSE 0.1083 (32 bins of width 1/32: the bin width alone costs RMSE 0.009)
                Arguments.of(new HistogramSpec(32, false), -0.2, 0.14),
                // measured: NLL -1.876, RMSE 0.0575
                Arguments.of(new MixtureSpec(5), -1.5, 0.08));
    }

    @ParameterizedTest
    @MethodSource("heads")
    void yachtFoldZero(HeadSpec head, double maxNll, double maxRmse) {
        Path root = io.regheads.core.testing.TestDatasets.root();
        Dataset all = CsvLoader.load(root.resolve("yacht.csv"));
        Folds folds = Folds.forDataset(root, "yacht");
        Folds.Split split = folds.split(all, 0);
        ModelConfig cfg = new ModelConfig(2, 64, head, null, TrainerConfig.defaults().withMaxEpochs(300).withPatience(20).withSeed(0));
        RegressionModel m = RegressionModel.create(cfg, all.features());
        m.fit(split.train());
        double[] y01 = m.yScaler().transform(split.test().y());
        for (int i = 0; i < y01.length; i++) {
            y01[i] = Math.min(1 - 1e-7, Math.max(0, y01[i]));
        }
        PredictiveDistribution d = m.predictUnit(split.test().x());
        double[] logp = d.logDensity(y01);
        double[] mean = d.mean();
        double nll = 0;
        double se = 0;
        for (int i = 0; i < y01.length; i++) {
            nll -= logp[i] / y01.length;
            se += (mean[i] - y01[i]) * (mean[i] - y01[i]) / y01.length;
        }
        double rmse = Math.sqrt(se);
        System.out.printf("yacht fold 0, %s: test NLL %.3f, RMSE %.4f (y01 units)%n", head, nll, rmse);
        assertTrue(nll < maxNll, head + ": test NLL " + nll + " >= " + maxNll);
        assertTrue(rmse < maxRmse, head + ": test RMSE " + rmse + " >= " + maxRmse);
    }
}
