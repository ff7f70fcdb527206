package io.regheads.heads.decoder;

import io.regheads.core.internal.Activations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.testing.GradientCheck;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Gradients through the whole decoder head, and the cached incremental path against the full forward. */
class DecoderHeadTest {
    static final int D = 5;
    /**
     * Standard step and relative error, with the denominator floored at 1e-4: the loss is O(1), so central
     * differences carry ~1e-16 / 1e-6 = 1e-10 of round-off, which dominates gradient elements below ~1e-5.
     */
    static final GradientCheck.Tolerance TOLERANCE = new GradientCheck.Tolerance(1e-6, 1e-5, 1e-4);

    static DecoderHead small(NumberTokenizer tok, long seed) {
        return new DecoderHead(tok, D, new TransformerBlock.Config(8, 2, 12), 2, seed, DataType.DOUBLE);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ce", "ce+ntl-was", "gce"})
    void headAndLossGradientsMatchFiniteDifferences(String lossName) {
        DecoderHead head = small(NormalizedTokenizer.of(4, 3), 3);
        Loss loss = switch (lossName) {
            case "ce" -> Losses.ce();
            case "ce+ntl-was" -> Losses.ce().plus(0.3, Losses.ntlWas());
            default -> Losses.gce(0.7);
        };
        double worst = GradientCheck.checkHead(head, loss, new double[] {0.05, 0.51, 0.93},
                GradientCheck.random(11, 1.0, 3, D), TOLERANCE);
        assertTrue(worst < 1e-5, lossName + ": worst relative error " + worst);
    }

    @Test
    void unnormalizedMasksFollowTheTokenizerUnderTeacherForcing() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.tiny());
        DecoderHead head = small(tok, 5);
        double[] y = {-2.5, 0.0, 7.0};
        Targets.Tokens t = (Targets.Tokens) head.targets(y);
        TokenLogits out = (TokenLogits) head.forward(GradientCheck.random(2, 1.0, 3, D), t, Arena.none()).output();
        int tt = tok.sequenceLength();
        for (int r = 0; r < 3; r++) {
            int[] seq = tok.encode(y[r]);
            for (int p = 0; p < tt; p++) {
                boolean[] a = tok.allowed(p, seq);
                for (int k = 0; k < tok.vocabularySize(); k++) {
                    assertEquals(a[k] ? 1.0 : 0.0, out.validMask().getDouble(r, p, k), "row " + r + " pos " + p + " tok " + k);
                }
            }
        }
    }

    /** The key/value-cached path (one position per step) computes the full teacher-forced forward's logits. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"normalized", "unnormalized", "normalized-relu"})
    void cachedStepsEqualTheFullForward(String kind) {
        boolean normalized = kind.startsWith("normalized");
        NumberTokenizer tok = normalized ? NormalizedTokenizer.of(10, 3)
                : new UnnormalizedTokenizer(UnnormalizedConfig.tiny());
        DecoderHead head = kind.endsWith("-relu")
                ? new DecoderHead(tok, D, new TransformerBlock.Config(8, 2, 12,
                        TransformerBlock.Activation.RELU), 2, 7, DataType.DOUBLE)
                : small(tok, 7);
        double[] y = normalized ? new double[] {0.123, 0.999, 0.5, 0.0} : new double[] {-2.5, 0.0, 7.0, 0.11};
        INDArray phi = GradientCheck.random(4, 1.0, y.length, D);
        Targets.Tokens t = (Targets.Tokens) head.targets(y);
        TokenLogits full = (TokenLogits) head.forward(phi, t, Arena.none()).output();
        DecoderState s = head.distribution(phi).start();
        int tt = tok.sequenceLength();
        int v = tok.vocabularySize();
        for (int p = 0; p < tt; p++) {
            double[] lg = s.logits();
            int[] next = new int[y.length];
            for (int r = 0; r < y.length; r++) {
                for (int k = 0; k < v; k++) {
                    assertEquals(full.logits().getDouble(r, p, k), lg[r * v + k], 1e-9, "row " + r + " pos " + p);
                }
                next[r] = t.tokens()[r * tt + p];
            }
            s.advance(next);
            if (p == 0) { // branch: rows in reverse order, caches copied
                int n = y.length;
                s = s.select(java.util.stream.IntStream.range(0, n).map(i -> n - 1 - i).toArray())
                        .select(java.util.stream.IntStream.range(0, n).map(i -> n - 1 - i).toArray());
            }
        }
        assertThrows(IllegalArgumentException.class, s::logits);
    }

    /** The float model's cached path (float-accurate tanh, float gemms) agrees with its full forward. */
    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.EnumSource(TransformerBlock.Activation.class)
    void cachedStepsEqualTheFullForwardInFloat(TransformerBlock.Activation activation) {
        NumberTokenizer tok = NormalizedTokenizer.of(10, 3);
        DecoderHead head = new DecoderHead(tok, D, new TransformerBlock.Config(8, 2, 12, activation), 2, 4,
                DataType.FLOAT);
        double[] y = {0.123, 0.999, 0.5};
        INDArray phi = GradientCheck.random(4, 1.0, y.length, D).castTo(DataType.FLOAT);
        Targets.Tokens t = (Targets.Tokens) head.targets(y);
        TokenLogits full = (TokenLogits) head.forward(phi, t, Arena.none()).output();
        DecoderState s = head.distribution(phi).start();
        for (int p = 0; p < 3; p++) {
            int[] next = new int[y.length];
            for (int r = 0; r < y.length; r++) {
                for (int k = 0; k < 10; k++) {
                    assertEquals(full.logits().getDouble(r, p, k), s.logits()[r * 10 + k], 2e-5, "row " + r + " pos " + p);
                }
                next[r] = t.tokens()[r * 3 + p];
            }
            s.advance(next);
        }
        double u = 0.3;
        double exact = 0.5 * u * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (u + 0.044715 * u * u * u)));
        assertEquals(exact, io.regheads.core.internal.Activations.geluTanh((float) u), 1e-7);
    }

    @Test
    void forwardNeedsTeacherForcingTargets() {
        DecoderHead head = small(NormalizedTokenizer.of(4, 2), 1);
        INDArray phi = GradientCheck.random(1, 1.0, 2, D);
        assertThrows(IllegalArgumentException.class, () -> head.forward(phi, null, Arena.none()));
        assertThrows(IllegalArgumentException.class, () -> head.targets(new double[] {Double.NaN}));
        assertThrows(IllegalArgumentException.class, () -> head.targets(new double[] {1.5}));
    }

    /** Masks hold in sampling: 10^5 unnormalized samples are all valid sequences that decode to finite numbers. */
    @Test
    void unnormalizedSamplingOnlyEmitsValidNumbers() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.tiny());
        DecoderHead head = small(tok, 9);
        DecoderDistribution d = head.distribution(GradientCheck.random(6, 3.0, 2, D));
        UniformRandomProvider rng = RandomSource.SPLIT_MIX_64.create(1);
        int[][] seq = d.sampling().sampleSequences(rng, 50_000, new DecoderSampling.Settings(1.5, 0, 1));
        assertEquals(100_000, seq.length);
        for (int[] s : seq) {
            for (int p = 0; p < s.length; p++) {
                assertTrue(tok.allowed(p, s)[s[p]], "invalid token at " + p);
            }
            assertTrue(Double.isFinite(tok.decode(s)));
            assertEquals(s.length, tok.encode(tok.decode(s)).length);
            assertEquals(java.util.Arrays.toString(s), java.util.Arrays.toString(tok.encode(tok.decode(s))), "canonical");
        }
    }

    /** The decoder's own float GELU equals the training kernel's {@code GELU.tanhFormFloat} bit for bit. */
    @Test
    void floatGeluEqualsTheTrainingKernelBitForBit() {
        java.util.Random rnd = new java.util.Random(5);
        float[] special = {0f, -0f, 1f, -1f, 9f, -9f, 9.5f, -9.5f, 4.3f, -4.3f, 1e-30f, -1e-30f, 30f, -30f,
            Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, Float.NaN};
        float[] u = new float[200_000 + special.length];
        for (int i = 0; i < u.length; i++) {
            u[i] = i < special.length ? special[i] : (float) (rnd.nextGaussian() * (i % 3 == 0 ? 8 : 2));
        }
        float[] y = new float[u.length];
        for (int pass = 0; pass < 3; pass++) { // also after C2 has compiled (and vectorized) the array loop
            io.regheads.core.internal.Activations.geluTanh(u, y);
            for (int i = 0; i < u.length; i++) {
                float want = io.regheads.core.internal.Activations.geluTanh(u[i]);
                assertEquals(Float.floatToIntBits(want), Float.floatToIntBits(y[i]), "GELU(" + u[i] + ") " + want + " vs " + y[i]);
            }
        }
    }
}
