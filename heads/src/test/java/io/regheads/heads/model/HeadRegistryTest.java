package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.TargetScaling;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.quantile.QuantileSpec;
import io.regheads.heads.xval.XValSpec;
import java.io.IOException;
import java.io.StringReader;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Each spec writes named, versioned keys and reads them back; the registry and the readers refuse by name. */
class HeadRegistryTest {

    static Stream<HeadSpec> specs() {
        return Stream.of(new PointwiseSpec(false), new PointwiseSpec(true), new HistogramSpec(256, true),
                new MixtureSpec(10), DecoderSpec.small(10, 3), DecoderSpec.referenceSetup(),
                UnnormalizedDecoderSpec.small(10, 1, 3), UnnormalizedDecoderSpec.scaled(10, 1, 3, 16, 2, 32, 2, true),
                UnnormalizedDecoderSpec.scaled(10, 1, 3, 16, 2, 32, 2, false),
                UnnormalizedDecoderSpec.small(8, 2, 8).withSpecialTokens(true)
                        .withRange(new UnnormalizedDecoderSpec.Range(-3, 5, true)),
                new XValSpec(256, false), new XValSpec(32, true),
                io.regheads.heads.decoder.RepeatedDecoderSpec.small(2, 5, 3),
                io.regheads.heads.decoder.HammingDecoderSpec.small(8), new QuantileSpec(), new QuantileSpec(0.1, 0.5, 0.9));
    }

    @ParameterizedTest
    @MethodSource("specs")
    void everySpecRoundTripsThroughItsKeys(HeadSpec spec) {
        Properties p = spec.toProperties();
        assertEquals(spec.name(), p.getProperty("head"));
        assertEquals(Integer.toString(spec.version()), p.getProperty("head.version"));
        assertEquals(spec, HeadRegistry.read(p));
        ModelConfig mc = ModelConfig.defaults(spec).withTrainer(TrainerConfig.paper().withSeed(-3).withClipNorm(0.7));
        assertEquals(mc, ModelConfig.of(mc.toProperties()));
    }

    private static Properties props(String text) {
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return p;
    }

    /**
     * A histogram on another range than [0, 1] writes it as head.low and head.high and reads it back; on [0, 1] it
     * writes neither, so the keys of every spec written before the range was a setting are unchanged.
     */
    @Test
    void histogramRangeKeysAppearOnlyOffTheUnitInterval() {
        HistogramSpec wide = new HistogramSpec(37, true, -1, 2);
        assertEquals(props("head=histogram\nhead.version=1\nhead.bins=37\nhead.tails=true\nhead.low=-1.0\n"
                + "head.high=2.0\n"), wide.toProperties());
        assertEquals(wide, HeadRegistry.read(wide.toProperties()));
        assertEquals(new HistogramSpec(37, true), new HistogramSpec(37, true, -0.0, 1));
        assertEquals(props("head=histogram\nhead.version=1\nhead.bins=37\nhead.tails=true\n"),
                new HistogramSpec(37, true, -0.0, 1).toProperties());
        assertArrayEquals(io.regheads.heads.histogram.HistogramDistribution.equalBorders(37, -1, 2), wide.borders(), 0.0);
        Properties half = wide.toProperties();
        half.remove("head.high");
        assertEquals("head.high is missing", assertThrows(IllegalArgumentException.class,
                () -> HeadRegistry.read(half)).getMessage());
        Properties reversed = wide.toProperties();
        reversed.setProperty("head.high", "-2");
        assertEquals("head.high must be > low, got low = -1.0, high = -2.0", assertThrows(
                IllegalArgumentException.class, () -> HeadRegistry.read(reversed)).getMessage());
    }

    @Test
    void keysAreNamedAsDocumented() {
        assertEquals(props("head=histogram\nhead.version=1\nhead.bins=256\nhead.tails=true\n"),
                new HistogramSpec(256, true).toProperties());
        assertEquals(props("head=decoder\nhead.version=1\nhead.base=10\nhead.length=4\nhead.d=32\nhead.heads=1\n"
                + "head.ff=128\nhead.layers=1\nhead.activation=RELU\n"), DecoderSpec.referenceSetup().toProperties());
        assertEquals(props("head=unnormalized-decoder\nhead.version=1\nhead.base=10\nhead.exponentDigits=1\n"
                + "head.mantissaDigits=3\nhead.specialTokens=false\nhead.scaling=RAW\nhead.d=32\nhead.heads=1\n"
                + "head.ff=128\nhead.layers=1\n"), UnnormalizedDecoderSpec.small(10, 1, 3).toProperties());
        assertEquals(props("head=unnormalized-decoder\nhead.version=1\nhead.base=10\nhead.exponentDigits=1\n"
                + "head.mantissaDigits=3\nhead.specialTokens=true\nhead.scaling=RAW\nhead.minExponent=0\n"
                + "head.maxExponent=2\nhead.negatives=false\nhead.d=32\nhead.heads=1\nhead.ff=128\nhead.layers=1\n"),
                UnnormalizedDecoderSpec.small(10, 1, 3).withSpecialTokens(true).fittedTo(new double[] {103.4, 140.9})
                        .toProperties());
        // a head on y01 (MIN_MAX scaling) with a fixed range round-trips with its scaling and range
        UnnormalizedDecoderSpec unit = UnnormalizedDecoderSpec.scaled(10, 1, 3, 32, 1, 128, 1, true);
        assertEquals(unit, HeadRegistry.read(unit.toProperties()));
        assertEquals(new UnnormalizedDecoderSpec.Range(-9, 0, false), unit.range());
        assertEquals(new UnnormalizedDecoderSpec.Range(-9, 9, true), UnnormalizedDecoderSpec.scaled(10, 1, 3, 32,
                1, 128, 1, false).range());
        assertEquals(props("head=mdn\nhead.version=1\nhead.components=10\nhead.sigmaFloor=1.0E-4\n"),
                new MixtureSpec(10).toProperties());
        assertEquals(new MixtureSpec(3, 0.25), HeadRegistry.read(new MixtureSpec(3, 0.25).toProperties()));
        assertEquals(List.of("pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval",
                "repeat-decoder", "hamming-decoder", "quantile"), List.copyOf(HeadRegistry.names()));
    }

    @Test
    void specsNameTheirUnitsLossAndPointEstimate() {
        assertEquals(TargetScaling.CENTRED_MIN_MAX, new PointwiseSpec(false).targetScaling());
        assertEquals(TargetScaling.MIN_MAX, new PointwiseSpec(true).targetScaling());
        assertEquals("mse", new PointwiseSpec(false).defaultLoss());
        assertEquals(TargetScaling.MIN_MAX, new HistogramSpec(8, false).targetScaling());
        assertEquals(TargetScaling.CENTRED_MIN_MAX, new MixtureSpec(3).targetScaling());
        assertEquals(TargetScaling.MIN_MAX, DecoderSpec.small(10, 3).targetScaling());
        assertEquals(TargetScaling.RAW, UnnormalizedDecoderSpec.small(10, 1, 3).targetScaling());
        assertEquals(TargetScaling.MIN_MAX, UnnormalizedDecoderSpec.scaled(10, 1, 3, 32, 1, 128, 1, true).targetScaling());
        assertEquals(PointEstimate.MEAN, DecoderSpec.small(10, 3).pointEstimate());
        assertEquals(PointEstimate.AUTO, UnnormalizedDecoderSpec.small(10, 1, 3).pointEstimate());
        assertEquals(PointEstimate.MEDIAN, UnnormalizedDecoderSpec.scaled(10, 1, 3, 32, 1, 128, 1, true).pointEstimate());
        assertEquals(TargetScaling.CENTRED_MIN_MAX, new XValSpec(8, false).targetScaling());
        assertEquals("mse", new XValSpec(8, false).defaultLoss());
        assertEquals("ce", new XValSpec(8, true).defaultLoss());
        assertEquals(PointEstimate.MEAN, new XValSpec(8, true).pointEstimate());
    }

    private static String refusal(String text) {
        return assertThrows(IllegalArgumentException.class, () -> HeadRegistry.read(props(text))).getMessage();
    }

    @Test
    void theRegistryRefusesAnUnknownOrMissingHead() {
        assertEquals("head must be one of [pointwise, histogram, mdn, decoder, unnormalized-decoder, xval, "
                + "repeat-decoder, hamming-decoder, quantile], got 'forest'", refusal("head=forest\nhead.version=1\n"));
        assertEquals("head is missing; known heads: [pointwise, histogram, mdn, decoder, unnormalized-decoder, xval, "
                + "repeat-decoder, hamming-decoder, quantile]", refusal("bins=3\n"));
    }

    @Test
    void readersNameTheKeyTheyRefuse() {
        assertEquals("head.bins must be an integer, got 'many'",
                refusal("head=histogram\nhead.version=1\nhead.bins=many\nhead.tails=false\n"));
        assertEquals("head.bins must be >= 2, got 1", refusal("head=histogram\nhead.version=1\nhead.bins=1\nhead.tails=true\n"));
        assertEquals("head.tails must be true or false, got 'yes'",
                refusal("head=histogram\nhead.version=1\nhead.bins=8\nhead.tails=yes\n"));
        assertEquals("head.tails is missing", refusal("head=histogram\nhead.version=1\nhead.bins=8\n"));
        assertEquals("head.version is missing", refusal("head=mdn\nhead.components=3\n"));
        assertEquals("head.version must be in [1, 1] (the newest this library reads), got 2",
                refusal("head=mdn\nhead.version=2\nhead.components=3\nhead.sigmaFloor=1e-4\n"));
        assertEquals("head.sigmaFloor is missing", refusal("head=mdn\nhead.version=1\nhead.components=3\n"));
        assertEquals("head.sigmaFloor must be >= 0 and finite, got -1.0",
                refusal("head=mdn\nhead.version=1\nhead.components=3\nhead.sigmaFloor=-1\n"));
        assertEquals("head.components must be >= 1, got 0",
                refusal("head=mdn\nhead.version=1\nhead.components=0\nhead.sigmaFloor=1e-4\n"));
        assertEquals("head.component is not a known setting; known under 'head.': [components, sigmaFloor, version]",
                refusal("head=mdn\nhead.version=1\nhead.components=3\nhead.sigmaFloor=1e-4\nhead.component=4\n"));
        assertEquals("head.activation must be one of [GELU, RELU], got 'TANH'",
                refusal("head=decoder\nhead.version=1\nhead.base=10\nhead.length=3\nhead.d=32\nhead.heads=1\n"
                        + "head.ff=128\nhead.layers=1\nhead.activation=TANH\n"));
        assertEquals("head.heads must divide d = 32, got 3",
                refusal("head=decoder\nhead.version=1\nhead.base=10\nhead.length=3\nhead.d=32\nhead.heads=3\n"
                        + "head.ff=128\nhead.layers=1\nhead.activation=GELU\n"));
        assertEquals("head.sigmoid must be true or false, got '1'", refusal("head=pointwise\nhead.version=1\nhead.sigmoid=1\n"));
        // a spec's own reader refuses another head's keys
        assertEquals("head must be mdn for this reader, got 'histogram'", assertThrows(IllegalArgumentException.class,
                () -> MixtureSpec.of(new HistogramSpec(4, false).toProperties())).getMessage());
    }

    @Test
    void modelKeysAreNamedToo() {
        Properties p = ModelConfig.defaults(new MixtureSpec(3)).toProperties();
        p.setProperty("encoder.width", "4096");
        assertEquals("encoder.width must be in [1, 2048], got 4096",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
        p.setProperty("encoder.width", "64");
        p.setProperty("trainer.batchSize", "0");
        assertEquals("trainer.batchSize must be >= 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
        p.setProperty("trainer.batchSize", "64");
        p.setProperty("loss", "ce+0.3*was");
        assertEquals("loss: loss term 'was' in 'ce+0.3*was' is unknown; use ce, mse, mae, huber[:delta], ntl-mse, "
                + "ntl-mae, ntl-huber[:delta], ntl-was, ntl-was-cdf[:sigma], gce[:sigma], crps, pinball, with :place, "
                + ":number or :all on NTL terms",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
        p.setProperty("loss", "ce");
        p.setProperty("trainer.learningRate", "NaN");
        assertEquals("trainer.learningRate must be a finite number, got 'NaN'",
                assertThrows(IllegalArgumentException.class, () -> ModelConfig.of(p)).getMessage());
        p.setProperty("trainer.learningRate", "0.001");
        assertEquals(ModelConfig.defaults(new MixtureSpec(3)).withEncoder(2, 64)
                .withTrainer(TrainerConfig.defaults().withBatchSize(64)), ModelConfig.of(p));
    }
}
