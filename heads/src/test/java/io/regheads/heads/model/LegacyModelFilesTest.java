package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseHead;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Model files in the first metadata format (positional lists, written before heads wrote their own settings; see
 * {@code src/test/resources/io/regheads/heads/model/legacy/README.md}) still load: the same spec and trainer
 * settings, and predictions bit for bit equal to what the writing code reported (the decoder's exact mean within
 * its certified error budget, which has become relative to the spread since).
 */
class LegacyModelFilesTest {
    private static final String DIR = "/io/regheads/heads/model/legacy/";

    static Stream<Arguments> files() {
        return Stream.of(Arguments.of("pointwise", new PointwiseSpec(false)),
                Arguments.of("histogram", new HistogramSpec(8, true)),
                Arguments.of("mdn", new MixtureSpec(3, 0)) /* trained without the scale floor */,
                Arguments.of("decoder", new DecoderSpec(10, 2, 8, 2, 16, 1, TransformerBlock.Activation.RELU)),
                Arguments.of("unnormalized-decoder", UnnormalizedDecoderSpec.scaled(10, 1, 2, 8, 1, 16, 1, false)));
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(LegacyModelFilesTest.class.getResource(DIR + name).toURI());
    }

    private static double[] hex(Properties p, String key) {
        return Arrays.stream(p.getProperty(key).split(",")).mapToDouble(Double::parseDouble).toArray();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void legacyFilesLoadWithTheirSpecAndPredictAsBefore(String name, HeadSpec spec) throws Exception {
        RegressionModel m = RegressionModel.load(resource(name + ".rgh"));
        assertEquals(spec, m.config().head());
        assertEquals(new ModelConfig(2, 8, spec, null,
                TrainerConfig.defaults().withMaxEpochs(2).withSeed(5).withLearningRate(3e-3)), m.config());
        Properties expected = new Properties();
        try (InputStream in = LegacyModelFilesTest.class.getResourceAsStream(DIR + name + ".expected")) {
            expected.load(in);
        }
        double[] flat = hex(expected, "x");
        double[][] x = new double[flat.length / 2][];
        for (int i = 0; i < x.length; i++) {
            x[i] = Arrays.copyOfRange(flat, 2 * i, 2 * i + 2);
        }
        double[] y = hex(expected, "y");
        PredictiveDistribution d = m.predict(x);
        // Changes since the files were written, each more accurate than before: the histogram's log density is the
        // exact log-softmax, not log(p) (1 ulp); the mixture's scales stay in double instead of being rounded to float
        // (relative 6e-8 at most), and predict's mixture weights and scales come from the double FastExp kernel
        // (relative 4.5e-16); the decoder's point is its exact mean, certified since to max(1e-9, 1e-3 IQR) in y01
        // units (it was 1e-9): equal within that budget (both are within it of the true mean); the pointwise head's
        // single output is a matrix-vector product now (the same float products added in another order): within a
        // float rounding of the output (about 4 here, so 5e-7) and what follows from it. Everything else is bit for
        // bit, except predict's histogram below.
        double tol = switch (name) {
            case "histogram" -> 1e-15;
            case "mdn" -> 1e-7;
            case "pointwise" -> 1e-6;
            default -> 0.0;
        };
        if (name.equals("decoder")) {
            double[] q25 = m.predictUnit(x).inverseCumulativeProbability(0.25);
            double[] q75 = m.predictUnit(x).inverseCumulativeProbability(0.75);
            double[] point = m.predictPoint(x);
            double[] old = hex(expected, "point");
            for (int i = 0; i < x.length; i++) {
                double budget = Math.max(1e-9, 1e-3 * (q75[i] - q25[i])) * m.yScaler().range();
                assertEquals(old[i], point[i], 2 * budget + 1e-12, "point " + i);
            }
        } else {
            assertArrayEquals(hex(expected, "point"), m.predictPoint(x), name.equals("pointwise") ? tol : 0.0, "point");
        }
        if (name.equals("histogram")) {
            assertHistogramWithinTheFloatSoftmaxBound(m, x, y, expected);
            return;
        }
        assertArrayEquals(hex(expected, "logDensity"), d.logDensity(y), tol * 4, "logDensity");
        assertArrayEquals(hex(expected, "cdf"), d.cumulativeProbability(y), tol, "cdf");
        assertArrayEquals(hex(expected, "quantile30"), d.inverseCumulativeProbability(0.3), tol, "quantile30");
    }

    /**
     * The histogram file is a FLOAT model: predictPoint (above) takes the head's exact softmax in double and is bit
     * for bit what the file's code reported, while predict computes the softmax with the float kernel (FastExp,
     * relative error at most 1.5e-7 per exponential). The head states the resulting bound: each probability within
     * a relative {@code eps = 3.1e-7 + 1.2e-7 D}, D the row's logit spread (1.5e-7 for the exponential, 1.5e-7 for
     * the sum, and 6e-8 |l - max| twice for rounding {@code l - max} to float). So the cdf is within eps (a sum of
     * probabilities at most 1), the log density within eps (log(1 + eps)), and a quantile within eps over the
     * density there (the cdf's error divided by its slope; 2 eps / f allows for the second-order term). Checked per
     * row with D read from the row's probabilities.
     */
    private static void assertHistogramWithinTheFloatSoftmaxBound(RegressionModel m, double[][] x, double[] y,
            Properties expected) {
        PredictiveDistribution d = m.predict(x);
        double[][] p = ((io.regheads.heads.histogram.HistogramDistribution) m.predictUnit(x)).probabilities();
        double[] logDensity = d.logDensity(y);
        double[] cdf = d.cumulativeProbability(y);
        double[] q30 = d.inverseCumulativeProbability(0.3);
        double[] densityAtQ30 = d.logDensity(hex(expected, "quantile30"));
        for (int b = 0; b < x.length; b++) {
            double lo = Arrays.stream(p[b]).map(Math::log).min().orElseThrow();
            double hi = Arrays.stream(p[b]).map(Math::log).max().orElseThrow();
            double eps = 3.1e-7 + 1.2e-7 * (hi - lo);
            assertEquals(hex(expected, "logDensity")[b], logDensity[b], eps * 1.01 + 4e-15, "logDensity of row " + b);
            assertEquals(hex(expected, "cdf")[b], cdf[b], eps, "cdf of row " + b);
            assertEquals(hex(expected, "quantile30")[b], q30[b], 2 * eps / Math.exp(densityAtQ30[b]),
                    "quantile30 of row " + b);
            assertTrue(Math.abs(hex(expected, "cdf")[b] - cdf[b]) < 1e-6, "and small in absolute terms");
        }
    }

    @Test
    void thePointwiseNoiseLevelBecomesTheHeadsState() throws Exception {
        RegressionModel m = RegressionModel.load(resource("pointwise.rgh"));
        assertEquals(0.3409888274271253, ((PointwiseHead) m.head()).noiseStd(), 0.0); // head.noiseStd in the file
    }

    private static Properties props(String text) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(text));
        return p;
    }

    private static final String TRAINER = "trainer=5,128,2,0.003,0.0,0.0,0.1,5\n";

    @Test
    void positionalKeysBecomeNamedOnes() throws Exception {
        // a decoder written before head.activation existed: GELU
        Properties p = LegacyModelFormat.upgrade(props("head=decoder\nhead.decoder=10,4,32,1,128,1\n" + TRAINER), 2);
        assertEquals(new DecoderSpec(10, 4, 32, 1, 128, 1, TransformerBlock.Activation.GELU), HeadRegistry.read(p));
        assertEquals("2", p.getProperty("version"));
        assertEquals(null, p.getProperty("head.decoder"));
        assertEquals(null, p.getProperty("trainer"));
        assertEquals(new TrainerConfig(5, 128, 2, 0.003, 0, 0, 0.1, 5), TrainerConfig.of(p));

        Properties u = LegacyModelFormat.upgrade(props("head=unnormalized-decoder\nhead.unnormalized=10,1,3,32,1,128,1\n"
                + TRAINER), 2);
        // the tokenizer those files were trained with: y01, every exponent of one digit, both signs
        assertEquals(UnnormalizedDecoderSpec.scaled(10, 1, 3, 32, 1, 128, 1, false), HeadRegistry.read(u));

        Properties w = LegacyModelFormat.upgrade(props("head=pointwise\nhead.sigmoid=true\nhead.noiseStd=0.25\n" + TRAINER), 2);
        assertEquals(new PointwiseSpec(true), HeadRegistry.read(w));
        assertEquals("0.25", w.getProperty("state.noiseStd"));
        assertEquals(null, w.getProperty("head.noiseStd"));
    }

    @Test
    void malformedPositionalKeysAreNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LegacyModelFormat.upgrade(props("head=decoder\nhead.decoder=10,4,32\n" + TRAINER), 2));
        assertEquals("head.decoder must hold 6 comma-separated values (base,length,d,heads,ff,layers), got '10,4,32'",
                e.getMessage());
        IllegalArgumentException t = assertThrows(IllegalArgumentException.class,
                () -> LegacyModelFormat.upgrade(props("head=mdn\nhead.components=3\n"), 2));
        assertEquals("trainer is missing", t.getMessage());
        // a positional field that is not a number is named by its new key
        Properties bad = assertDoesNotThrowUpgrade("head=decoder\nhead.decoder=10,four,32,1,128,1\n" + TRAINER);
        IllegalArgumentException n = assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(bad));
        assertEquals("head.length must be an integer, got 'four'", n.getMessage());
    }

    private static Properties assertDoesNotThrowUpgrade(String text) {
        try {
            return LegacyModelFormat.upgrade(props(text), 2);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void legacyFilesSaveInTheNamedFormat(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        RegressionModel m = RegressionModel.load(resource("decoder.rgh"));
        Path f = dir.resolve("decoder.rgh");
        m.save(f);
        String meta = io.regheads.core.io.Checkpoint.read(f).metadata();
        assertTrue(meta.contains("head.version=1") && meta.contains("head.activation=RELU") && meta.contains("version=2")
                && meta.contains("trainer.batchSize=128") && !meta.contains("head.decoder=") && !meta.contains("trainer="),
                meta);
        double[][] x = {{0.1, -0.3}, {0.7, 0.2}};
        assertArrayEquals(m.predict(x).logDensity(new double[] {3, 4}),
                RegressionModel.load(f).predict(x).logDensity(new double[] {3, 4}), 0.0);
    }
}
