package io.regheads.heads.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.Arena;
import io.regheads.core.nn.LayerNorm;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.text.SequenceEncoderConfig.NumberEmbedding;
import io.regheads.tokenizers.text.CharVocabulary;
import io.regheads.tokenizers.text.XValCodec;
import io.regheads.tokenizers.text.XValEncoding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class SequenceEncoderTest {

    static SequenceEncoder encoder(NumberEmbedding numbers, int scales, int d, int maxLength) {
        return new SequenceEncoder(new SequenceEncoderConfig(CharVocabulary.SIZE, maxLength,
                new TransformerBlock.Config(d, 2, 2 * d), 2, numbers, CharVocabulary.NUM, scales, 11), DataType.DOUBLE);
    }

    /** Two expressions of different lengths (6 and 3 tokens) padded to L = 6. */
    static SequenceBatch twoExpressions() {
        return SequenceBatch.ofXVal(List.of(XValCodec.encode("(1.5*-2)"), XValCodec.encode("0.3+")), 6);
    }

    @ParameterizedTest
    @EnumSource(NumberEmbedding.class)
    void passesTheGradientCheckWithPadding(NumberEmbedding numbers) {
        SequenceEncoder enc = encoder(numbers, numbers == NumberEmbedding.XVAL_MULTISCALE ? 1 : 0, 4, 8);
        SequenceBatch batch = twoExpressions();
        INDArray probe = GradientCheck.random(3, 1.0, 2, 4);
        List<GradientCheck.Variable> vars = new ArrayList<>();
        for (Param p : enc.params()) {
            vars.add(new GradientCheck.Variable(p.name(), p.value(), p::grad));
        }
        double worst = GradientCheck.check(
                () -> enc.forward(batch, Arena.none()).phi().mul(probe).sumNumber().doubleValue(),
                () -> {
                    enc.params().forEach(Param::zeroGrad);
                    enc.backward(enc.forward(batch, Arena.none()), probe, Arena.none());
                }, vars, new GradientCheck.Tolerance(1e-6, 1e-5, 1e-4));
        assertTrue(worst < 1e-5, "worst relative error " + worst);
    }

    @Test
    void embeddingIsValueTimesNumPlusPosition() {
        SequenceEncoder enc = encoder(NumberEmbedding.XVAL, 0, 4, 8);
        SequenceBatch batch = twoExpressions(); // "(1.5*-2)": ( [NUM] * [NUM] ) with -2 at position 3
        INDArray h0 = enc.embed(batch);
        INDArray e = enc.params().get(0).value(); // token table [V, d]
        INDArray p = enc.params().get(1).value(); // position table [L, d]
        for (int j = 0; j < 4; j++) {
            assertEquals(1.5 * e.getDouble(CharVocabulary.NUM, j) + p.getDouble(1, j), h0.getDouble(0, 1, j), 1e-12);
            assertEquals(-2.0 * e.getDouble(CharVocabulary.NUM, j) + p.getDouble(3, j), h0.getDouble(0, 3, j), 1e-12);
            int paren = CharVocabulary.id('(');
            assertEquals(e.getDouble(paren, j) + p.getDouble(0, j), h0.getDouble(0, 0, j), 1e-12);
        }
    }

    @Test
    void multiScaleEmbeddingUsesTheTanhCoefficients() {
        SequenceEncoder enc = encoder(NumberEmbedding.XVAL_MULTISCALE, 1, 4, 8);
        INDArray h0 = enc.embed(twoExpressions());
        INDArray p = enc.params().get(1).value();
        INDArray m = enc.params().get(2).value(); // [3, d]
        double[] c = XValCodec.multiScale(1.5, 1); // tanh(0.15), tanh(1.5), tanh(15): the tokenizers' helper
        for (int j = 0; j < 4; j++) {
            double want = p.getDouble(1, j) + c[0] * m.getDouble(0, j) + c[1] * m.getDouble(1, j)
                    + c[2] * m.getDouble(2, j);
            assertEquals(want, h0.getDouble(0, 1, j), 1e-12);
        }
    }

    @Test
    void paddingDoesNotChangePhi() {
        SequenceEncoder enc = encoder(NumberEmbedding.XVAL, 0, 8, 8);
        XValEncoding short1 = XValCodec.encode("0.3+");
        double[] alone = enc.forward(SequenceBatch.ofXVal(List.of(short1), 3), Arena.none()).phi().toDoubleVector();
        double[] padded = enc.forward(twoExpressions(), Arena.none()).phi().getRow(1).toDoubleVector();
        // Garbage in the padded positions (ids and numbers) must not matter either.
        SequenceBatch b = twoExpressions();
        int[] tok = b.tokens();
        double[] num = b.numbers();
        tok[6 + 4] = CharVocabulary.NUM;
        num[6 + 4] = 1e6;
        double[] garbage = enc.forward(new SequenceBatch(2, 6, tok, num, b.lengths()), Arena.none()).phi().getRow(1)
                .toDoubleVector();
        for (int j = 0; j < 8; j++) {
            assertEquals(alone[j], padded[j], 1e-12);
            assertEquals(alone[j], garbage[j], 1e-12);
        }
    }

    /**
     * The xVal argument (paper section 2.1) stated precisely, on the encoder's own first layer norm f(x) = LN1(x e +
     * p) at a [NUM] position (e = E[NUM], p = P[t], gain 1 and bias 0 at initialisation):
     * <ol>
     *   <li>without the position, LN(x e) = LN(e) for every x > 0: the magnitude would be erased;</li>
     *   <li>with it, f(0.5) and f(2) differ (by more than 0.1 in Euclidean norm);</li>
     *   <li>small x: f is affine to first order, f(0.02) - f(0) = 2 (f(0.01) - f(0)) within 1%;</li>
     *   <li>large x: f(x) - LN(e) = J p / x + O(1/x^2), so |f(100) - LN(e)| / |f(1000) - LN(e)| is 10 within 2%
     *       (the saturation that limits xVal to inputs of a few units).</li>
     * </ol>
     */
    @Test
    void multiplicativeEmbeddingKeepsMagnitudeThroughTheFirstLayerNorm() {
        SequenceEncoder enc = encoder(NumberEmbedding.XVAL, 0, 16, 8);
        LayerNorm ln1 = enc.blocks().get(0).ln1();
        INDArray e = enc.params().get(0).value().getRow(CharVocabulary.NUM).dup().reshape(1, 16);
        double[] lnE = ln1.forward(e, Arena.none()).output().toDoubleVector();
        double[] lnHalfE = ln1.forward(e.mul(0.5), Arena.none()).output().toDoubleVector();
        double[] ln3E = ln1.forward(e.mul(3.0), Arena.none()).output().toDoubleVector();
        assertTrue(dist(lnE, lnHalfE) < 1e-4 && dist(lnE, ln3E) < 1e-4, "LN(x e) depends on x without a position");

        double[] f0 = f(enc, ln1, 0.0);
        double[] fHalf = f(enc, ln1, 0.5);
        double[] f2 = f(enc, ln1, 2.0);
        assertTrue(dist(fHalf, f2) > 0.1, "f(0.5) vs f(2) differ by only " + dist(fHalf, f2));

        double[] f001 = f(enc, ln1, 0.01);
        double[] f002 = f(enc, ln1, 0.02);
        double[] a = new double[16];
        double[] b = new double[16];
        for (int j = 0; j < 16; j++) {
            a[j] = 2 * (f001[j] - f0[j]);
            b[j] = f002[j] - f0[j];
        }
        assertTrue(norm(b) > 1e-3, "f moves by only " + norm(b) + " from x = 0 to 0.02");
        assertTrue(dist(a, b) < 0.01 * norm(b), "not affine for small x: " + dist(a, b) + " vs " + norm(b));

        double ratio = dist(f(enc, ln1, 100.0), lnE) / dist(f(enc, ln1, 1000.0), lnE);
        assertEquals(10.0, ratio, 0.2);
    }

    /** LN1 of the embedded [NUM] at position 1 of "([NUM]" with value x. */
    private static double[] f(SequenceEncoder enc, LayerNorm ln1, double x) {
        SequenceBatch b = new SequenceBatch(1, 2, new int[] {CharVocabulary.id('('), CharVocabulary.NUM},
                new double[] {1, x}, new int[] {2});
        INDArray h0 = enc.embed(b);
        return ln1.forward(h0, Arena.none()).output().reshape(2, 16).getRow(1).toDoubleVector();
    }

    private static double dist(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    private static double norm(double[] a) {
        return dist(a, new double[a.length]);
    }

    @Test
    void floatAgreesWithDouble() {
        SequenceEncoderConfig cfg = new SequenceEncoderConfig(CharVocabulary.SIZE, 8, new TransformerBlock.Config(8, 2,
                16), 2, NumberEmbedding.XVAL, CharVocabulary.NUM, 0, 5);
        double[] d = new SequenceEncoder(cfg, DataType.DOUBLE).forward(twoExpressions(), Arena.none()).phi()
                .reshape(16).toDoubleVector();
        double[] f = new SequenceEncoder(cfg, DataType.FLOAT).forward(twoExpressions(), Arena.create()).phi()
                .castTo(DataType.DOUBLE).reshape(16).toDoubleVector();
        for (int i = 0; i < 16; i++) {
            assertEquals(d[i], f[i], 1e-4);
        }
    }

    @Test
    void rejectsBadInput() {
        SequenceEncoder enc = encoder(NumberEmbedding.XVAL, 0, 4, 4);
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> enc.forward(twoExpressions(), Arena.none()));
        assertTrue(tooLong.getMessage().contains("maxLength 4, got 6"), tooLong.getMessage());
        assertThrows(IllegalArgumentException.class, () -> enc.forward(new SequenceBatch(1, 2, new int[] {1, 500},
                new double[] {1, 1}, new int[] {2}), Arena.none()));
        IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> new SequenceBatch(1, 2,
                new int[] {1, 2}, new double[] {1, Double.NaN}, new int[] {2}));
        assertTrue(nan.getMessage().contains("numbers[1] must be finite, got NaN"), nan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SequenceBatch(1, 2, new int[] {1, 2},
                new double[] {1, 1}, new int[] {3}));
        assertThrows(IllegalArgumentException.class, () -> enc.backward(enc.forward(SequenceBatch.ofXVal(
                List.of(XValCodec.encode("1")), 1), Arena.none()), Nd4j.zeros(DataType.DOUBLE, 2, 4), Arena.none()));
        assertThrows(IllegalArgumentException.class, () -> new SequenceEncoderConfig(CharVocabulary.SIZE, 8,
                new TransformerBlock.Config(4, 2, 8), 1, NumberEmbedding.XVAL, CharVocabulary.NUM, 1, 0));
    }

    @Test
    void rowsRoundTrip() {
        SequenceBatch b = twoExpressions();
        SequenceBatch back = SequenceBatch.fromRows(Nd4j.createFromArray(b.toRows()), 6);
        assertEquals(java.util.Arrays.toString(b.lengths()), java.util.Arrays.toString(back.lengths()));
        for (int i = 0; i < 2; i++) {
            for (int t = 0; t < b.lengthOf(i); t++) {
                assertEquals(b.token(i, t), back.token(i, t));
                assertEquals(b.number(i, t), back.number(i, t));
            }
        }
    }
}
