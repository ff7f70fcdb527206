package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.dist.WithTails;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unnormalized decoder through the model API on raw y: the exponent range fitted at fit time and saved, AUTO
 * point predictions (the certified mean), densities in original units, save and load.
 */
class UnnormalizedDecoderModelTest {
    @TempDir
    Path dir;

    /** The exponent of v rounded to 3 significant decimal digits (BigDecimal: independent of the tokenizer). */
    private static int exponent3(double v) {
        BigDecimal r = new BigDecimal(Math.abs(v)).round(new MathContext(3));
        return r.precision() - r.scale() - 1;
    }

    @Test
    void learnsRawTargetsWithAFittedRangeAndRoundTripsThroughAFile() {
        Dataset train = DecoderModelTest.data(1200, 1);
        Dataset test = DecoderModelTest.data(200, 2);
        UnnormalizedDecoderSpec h = new UnnormalizedDecoderSpec(10, 1, 3, false, TargetScaling.RAW, null, 16, 2, 32,
                1);
        ModelConfig c = new ModelConfig(2, 64, h, null, TrainerConfig.defaults().withMaxEpochs(80).withSeed(3));
        RegressionModel m = RegressionModel.create(c, 2);
        TrainingResult r = m.fit(train);
        assertTrue(!r.diverged(), r.message());

        // the range the masks allow: the exponents of the training targets (with 0), '-' only if one is negative
        int lo = 0;
        int hi = 0;
        boolean negative = false;
        for (double v : train.y()) {
            negative |= v < 0;
            lo = Math.min(lo, exponent3(v));
            hi = Math.max(hi, exponent3(v));
        }
        UnnormalizedDecoderSpec fitted = (UnnormalizedDecoderSpec) m.config().head();
        assertEquals(h.withRange(new UnnormalizedDecoderSpec.Range(lo, hi, negative)), fitted);
        assertNotEquals(h, fitted);

        PredictiveDistribution d = m.predict(test.x());
        double[] point = m.predictPoint(test.x());
        // on raw y the model's distribution is the decoder's with half-normal tails beyond its largest magnitude; AUTO
        // is the decoder's own certified mean (inside them)
        double[] mean = ((WithTails) d).base().mean();
        int certified = 0;
        for (int i = 0; i < point.length; i++) {
            certified += point[i] == mean[i] ? 1 : 0;
        }
        assertTrue(certified >= 190, "AUTO reports the certified mean on most rows, got " + certified + " of 200");
        double mse = 0;
        for (int i = 0; i < point.length; i++) {
            mse += Math.pow(point[i] - test.y(i), 2) / point.length;
        }
        double nll = -java.util.Arrays.stream(d.logDensity(test.y())).average().orElseThrow();
        System.out.printf("unnormalized decoder (raw y): test MSE %.5f, NLL %.4f, epochs %d, range %s%n", mse, nll,
                r.epochsRun(), fitted.range());
        // noise variance 0.01 (y in about [0, 6], 3 significant digits: cells of 0.01 above 1); allow the fit error
        assertTrue(mse < 0.05, "test MSE " + mse);
        assertTrue(nll < 0.5, "test NLL " + nll); // the noise alone gives -0.88
        double[] q05 = d.inverseCumulativeProbability(0.05);
        double[] q95 = d.inverseCumulativeProbability(0.95);
        int inside = 0;
        for (int i = 0; i < q05.length; i++) {
            inside += q05[i] <= test.y(i) && test.y(i) <= q95[i] ? 1 : 0;
        }
        assertTrue(inside >= 150, "90% intervals hold " + inside + " of 200");
        // raw units: the distribution is the head's own, y01 densities differ by the log of the range
        double[] y01 = m.yScaler().transform(test.y());
        double[] unit = m.predictUnit(test.x()).logDensity(y01);
        double[] orig = d.logDensity(test.y());
        for (int i = 0; i < 20; i++) {
            assertEquals(unit[i] - Math.log(m.yScaler().range()), orig[i], 1e-9, "row " + i);
        }

        Path f = dir.resolve("unnormalized.rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        assertEquals(fitted, back.config().head());
        PredictiveDistribution d2 = back.predict(test.x());
        assertArrayEquals(point, back.predictPoint(test.x()), 0.0);
        assertArrayEquals(d.logDensity(test.y()), d2.logDensity(test.y()), 0.0);
        assertArrayEquals(d.cumulativeProbability(test.y()), d2.cumulativeProbability(test.y()), 0.0);
        assertEquals(PointEstimate.AUTO, back.config().head().pointEstimate());
    }

    /** E = 2, M = 8 (the paper's largest choices): the exact mean is bounded, not refused, through the model. */
    @Test
    void largestPaperTokenizationPredictsAFiniteMean() {
        Dataset train = DecoderModelTest.data(300, 5);
        double[][] x = DecoderModelTest.data(4, 6).x();
        UnnormalizedDecoderSpec h = new UnnormalizedDecoderSpec(10, 2, 8, false, TargetScaling.RAW, null, 16, 1, 32,
                1);
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, h, null,
                TrainerConfig.defaults().withMaxEpochs(3).withSeed(1)), 2);
        m.fit(train);
        PredictiveDistribution decoder = ((WithTails) m.predict(x)).base(); // the decoder inside its tails
        double[] mean = decoder.mean();
        double[] auto = m.predictPoint(x);
        double[] median = decoder.median();
        for (int i = 0; i < x.length; i++) {
            assertTrue(Double.isFinite(mean[i]) && Double.isFinite(auto[i]), "row " + i + ": " + mean[i]);
            assertTrue(auto[i] == mean[i] || auto[i] == median[i], "row " + i);
        }
    }

    @Test
    void invalidSizesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> UnnormalizedDecoderSpec.small(1, 1, 3));
        assertThrows(IllegalArgumentException.class, () -> UnnormalizedDecoderSpec.small(10, 0, 3));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(10, 1, 3, false,
                TargetScaling.RAW, null, 32, 3, 128, 1));
        assertThrows(IllegalArgumentException.class, () -> new UnnormalizedDecoderSpec(10, 1, 3, false,
                TargetScaling.RAW, null, 32, 1, 128, 0));
        assertThrows(IllegalArgumentException.class, () -> UnnormalizedDecoderSpec.small(10, 1, 3)
                .withRange(new UnnormalizedDecoderSpec.Range(-10, 0, true))); // E = 1 spells exponents -9..9
        assertThrows(IllegalArgumentException.class, () -> UnnormalizedDecoderSpec.small(10, 1, 3).withScaling(null));
        // the paper's tokenization choices are all valid
        for (int b : new int[] {4, 8, 10}) {
            for (int e : new int[] {1, 2, 4}) {
                for (int mm : new int[] {2, 4, 8}) {
                    assertEquals(b, UnnormalizedDecoderSpec.small(b, e, mm).tokenizer().config().base());
                }
            }
        }
    }
}
