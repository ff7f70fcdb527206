package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.model.HeadRegistry;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The repetition-code and Hamming-code decoders as model heads: their keys, their refusals, and a fitted model whose
 * predictive distribution is the exact one of the decoded value (its density over the bins of y01 sums to 1) and
 * survives a model file.
 */
class CodedDecoderSpecsTest {
    @TempDir
    Path dir;

    @Test
    void keysAreNamedAsDocumentedAndReadBack() {
        RepeatedDecoderSpec r = RepeatedDecoderSpec.small(2, 5, 3);
        Properties rp = r.toProperties();
        assertEquals("repeat-decoder", rp.getProperty("head"));
        assertEquals("3", rp.getProperty("head.repeats"));
        assertEquals("5", rp.getProperty("head.length"));
        assertEquals("GELU", rp.getProperty("head.activation"));
        assertEquals(r, HeadRegistry.read(rp));
        assertEquals(15, r.tokenizer().sequenceLength());
        assertEquals(3, r.tokenizer().repetitions());
        HammingDecoderSpec h = new HammingDecoderSpec(6, 16, 2, 32, 2, TransformerBlock.Activation.RELU);
        Properties hp = h.toProperties();
        assertEquals("hamming-decoder", hp.getProperty("head"));
        assertEquals("6", hp.getProperty("head.bits"));
        assertEquals(h, HeadRegistry.read(hp));
        assertEquals(6, h.tokenizer().sequenceLength());
    }

    @Test
    void readersNameTheKeyTheyRefuse() {
        Properties r = RepeatedDecoderSpec.small(2, 5, 3).toProperties();
        r.setProperty("head.repeats", "0");
        assertEquals("head.repeats must be >= 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(r)).getMessage());
        Properties h = HammingDecoderSpec.small(8).toProperties();
        h.setProperty("head.bits", "20");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(h)).getMessage()
                .startsWith("head.bits must be in [1, 16]"));
        h.setProperty("head.bits", "8");
        h.setProperty("head.bases", "2");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(h)).getMessage()
                .startsWith("head.bases is not a known setting"));
    }

    @Test
    void repeatDecoderFitsAndItsVotedDensitySumsToOne() {
        fitAndCheck(RepeatedDecoderSpec.small(2, 4, 3), 16);
    }

    @Test
    void hammingDecoderFitsAndItsDensitySumsToOne() {
        fitAndCheck(HammingDecoderSpec.small(5), 32);
    }

    /**
     * Fits a small model, checks that the density of y01 summed over the {@code bins} equal bins (times their width)
     * is 1 - 1e-3 for every row, the rest being the tails the model gives a bounded head beyond [0, 1] (an exact
     * enumeration; float logits, so 1e-5), and that a saved model predicts the same.
     */
    private void fitAndCheck(HeadSpec spec, int bins) {
        Dataset train = DecoderModelTest.data(200, 1);
        ModelConfig c = new ModelConfig(2, 16, spec, null, TrainerConfig.defaults().withMaxEpochs(2).withSeed(3));
        RegressionModel m = RegressionModel.create(c, 2);
        m.fit(train);
        double[][] x = DecoderModelTest.data(5, 2).x();
        PredictiveDistribution unit = m.predictUnit(x);
        double[] sum = new double[x.length];
        double[] y = new double[x.length];
        for (int j = 0; j < bins; j++) {
            Arrays.fill(y, (j + 0.5) / bins);
            double[] ld = unit.logDensity(y);
            for (int i = 0; i < x.length; i++) {
                sum[i] += Math.exp(ld[i]) / bins;
            }
        }
        for (int i = 0; i < x.length; i++) {
            assertEquals(1 - 1e-3, sum[i], 1e-5, spec.name() + " row " + i);
        }
        Path f = dir.resolve(spec.name() + ".rgh");
        m.save(f);
        RegressionModel back = RegressionModel.load(f);
        assertEquals(spec, back.config().head());
        PredictiveDistribution d = m.predict(x);
        PredictiveDistribution d2 = back.predict(x);
        assertArrayEquals(d.mean(), d2.mean(), 0.0);
        assertArrayEquals(d.inverseCumulativeProbability(0.9), d2.inverseCumulativeProbability(0.9), 0.0);
    }
}
