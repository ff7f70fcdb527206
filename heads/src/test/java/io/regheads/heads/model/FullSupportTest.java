package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.WithTails;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.testing.DistributionContract;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramDistribution;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.quantile.QuantileSpec;
import io.regheads.heads.xval.XValSpec;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every head gives every finite y a finite log density: targets 1%, 10% and 100 ranges outside the training range
 * included, where a bounded head (a normalized decoder, a histogram without tails) gave 0 before it got tails.
 */
class FullSupportTest {

    static Stream<HeadSpec> everyHead() {
        return Stream.of(new PointwiseSpec(false), new HistogramSpec(16, false), new HistogramSpec(16, true),
                new MixtureSpec(3), new XValSpec(16, false), new DecoderSpec(10, 2, 8, 1, 16, 1),
                new UnnormalizedDecoderSpec(10, 1, 3, false, TargetScaling.RAW, null, 8, 1, 16, 1),
                UnnormalizedDecoderSpec.scaled(10, 1, 3, 8, 1, 16, 1, false), new QuantileSpec());
    }

    /** y = 2 + 3 x0 + noise on [2, 5]-ish. */
    private static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = r.nextDouble();
            x[i][1] = r.nextDouble();
            y[i] = 2 + 3 * x[i][0] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    @ParameterizedTest
    @MethodSource("everyHead")
    void targetsOutsideTheTrainingRangeHaveFiniteDensity(HeadSpec h) {
        Dataset train = data(300, 1);
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 16, h, null, TrainerConfig.defaults()
                .withMaxEpochs(2).withSeed(2)), 2);
        m.fit(train);
        double min = Arrays.stream(train.y()).min().orElseThrow();
        double max = Arrays.stream(train.y()).max().orElseThrow();
        double range = max - min;
        double[][] x = data(6, 3).x();
        double[] y = {max + 0.01 * range, max + 0.1 * range, max + 100 * range, min - 0.01 * range,
            min - 0.1 * range, min - 100 * range};
        PredictiveDistribution d = m.predict(x);
        double[] logp = d.logDensity(y);
        double[] cdf = d.cumulativeProbability(y);
        for (int i = 0; i < y.length; i++) {
            assertTrue(Double.isFinite(logp[i]), h + ": log density of " + y[i] + " is " + logp[i]);
            assertTrue(cdf[i] >= 0 && cdf[i] <= 1, h + ": cdf " + cdf[i]);
            boolean near = i % 3 != 2; // 1% and 10% outside: strictly inside (0, 1) in double too
            assertTrue(!near || (cdf[i] > 0 && cdf[i] < 1), h + ": cdf of " + y[i] + " is " + cdf[i]);
        }
        double[] unit = m.predictUnit(x).logDensity(m.yScaler().transform(y.clone()));
        for (double v : unit) {
            assertTrue(Double.isFinite(v), h + ": log density in y01 units " + v);
        }
        // the point prediction is the same distribution's summary (for heads that generate no tokens)
        if (!m.head().generatesTokens()) {
            assertEquals(Arrays.toString(d.mean()), Arrays.toString(m.predictPoint(x)), h.toString());
        }
    }

    /** The tails pass the distribution contract (cdf, density, quantiles, samples, moments) around a histogram. */
    @Test
    void aBoundedHistogramWithTailsKeepsTheContract() {
        double[] borders = HistogramDistribution.equalBorders(4, 0, 1);
        HistogramDistribution base = new HistogramDistribution(borders, new double[][] {{0.1, 0.2, 0.3, 0.4},
            {0.7, 0.1, 0.1, 0.1}}, false);
        WithTails d = new WithTails(base, 0.05, 0.2); // heavy tails, so the contract sees them
        DistributionContract.verify(d, 100_000, 7);
        // by hand: left of 0, mass 0.025 in a half-normal of scale 0.2
        assertEquals(0.025 * 2 * 0.3085375387259869, // Phi(-0.5) by SciPy's norm.cdf
                d.cumulativeProbability(new double[] {-0.1, -0.1})[0], 1e-15);
        assertEquals(Math.log(0.025 * 2 / 0.2) - 0.5 * 0.25 - 0.5 * Math.log(2 * Math.PI),
                d.logDensity(new double[] {-0.1, -0.1})[1], 1e-14);
        // inside: (1 - 0.05) of the base, shifted by the left tail's 0.025
        assertEquals(0.025 + 0.95 * 0.1, d.cumulativeProbability(new double[] {0.25, 0.25})[0], 1e-15);
        assertEquals(0.95 * 0.5 + 0.05 * 0.5, d.mean()[0] - 0.95 * (base.mean()[0] - 0.5), 1e-12);
    }
}
