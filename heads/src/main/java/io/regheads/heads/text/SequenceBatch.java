package io.regheads.heads.text;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.tokenizers.text.XValEncoding;
import java.util.List;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * B token sequences padded to a common length L, with one number per position for the xVal embedding.
 *
 * <p>Row-major layout: position t of sequence b is index {@code b * L + t}. Positions {@code t < lengths[b]} are
 * real, the others padding (their tokens and numbers are ignored by the encoder). {@code numbers} holds the value
 * of each {@code [NUM]} token and 1 elsewhere (the reference's {@code x_num}).
 *
 * <p>Packed form for {@link io.regheads.core.train.Trainer}, whose batches are feature matrices: a row of width
 * {@code 2L} holds the L token ids (padding = {@link #PAD}, which no real token uses) and then the L numbers
 * ({@link #toRows}, {@link #fromRows}); the length of a row is the count of its leading non-PAD ids. Ids below
 * 2^24 and the numbers survive a FLOAT matrix exactly when they are floats (three-significant-digit operands are).
 *
 * <p>Example: the xVal encoding of {@code "(1.5 * 2)"} is the 7 tokens {@code ( [NUM] space * space [NUM] )} with
 * numbers {@code [1, 1.5, 1, 1, 1, 2, 1]}; in a batch with L = 9 its row is followed by 2 padding positions.
 *
 * @param batch   B >= 1
 * @param length  L >= 1
 * @param tokens  {@code [B * L]} ids, >= 0
 * @param numbers {@code [B * L]} finite values
 * @param lengths {@code [B]} each in [1, L]
 *
 * <p>Immutable (arrays are copied in and out) and thread-safe.
 */
public record SequenceBatch(int batch, int length, int[] tokens, double[] numbers, int[] lengths) {

    /** The padding id (CharVocabulary.PAD). */
    public static final int PAD = 0;

    /**
     * Validates sizes, ids, lengths and values; copies the arrays.
     *
     * @throws IllegalArgumentException on a size mismatch, a negative id, a length outside [1, L] or a non-finite
     *                                  number at a real position
     */
    public SequenceBatch {
        Checks.atLeast("batch", batch, 1);
        Checks.atLeast("length", length, 1);
        Checks.notNull("tokens", tokens);
        Checks.notNull("numbers", numbers);
        Checks.notNull("lengths", lengths);
        Checks.require(tokens.length == batch * length, "tokens must have length B * L = %d, got %d",
                batch * length, tokens.length);
        Checks.require(numbers.length == batch * length, "numbers must have length B * L = %d, got %d",
                batch * length, numbers.length);
        Checks.require(lengths.length == batch, "lengths must have length B = %d, got %d", batch, lengths.length);
        for (int b = 0; b < batch; b++) {
            int n = lengths[b];
            if (n < 1 || n > length) {
                throw new IllegalArgumentException("lengths[" + b + "] must be in [1, " + length + "], got " + n);
            }
            for (int t = 0; t < n; t++) {
                int i = b * length + t;
                if (tokens[i] < 0) {
                    throw new IllegalArgumentException("tokens[" + i + "] must be >= 0, got " + tokens[i]);
                }
                if (!Double.isFinite(numbers[i])) {
                    throw new IllegalArgumentException("numbers[" + i + "] must be finite, got " + numbers[i]);
                }
            }
        }
        tokens = tokens.clone();
        numbers = numbers.clone();
        lengths = lengths.clone();
    }

    /** {@return a copy of the token ids} */
    @Override
    public int[] tokens() {
        return tokens.clone();
    }

    /** {@return a copy of the number values} */
    @Override
    public double[] numbers() {
        return numbers.clone();
    }

    /** {@return a copy of the sequence lengths} */
    @Override
    public int[] lengths() {
        return lengths.clone();
    }

    /** Token id at (b, t), no copy. */
    public int token(int b, int t) {
        return tokens[b * length + t];
    }

    /** Number at (b, t), no copy. */
    public double number(int b, int t) {
        return numbers[b * length + t];
    }

    /** Length of sequence b, no copy. */
    public int lengthOf(int b) {
        return lengths[b];
    }

    /**
     * xVal encodings padded to L.
     *
     * @throws IllegalArgumentException if the list is empty or an encoding is longer than L or empty
     */
    public static SequenceBatch ofXVal(List<XValEncoding> encodings, int length) {
        Checks.notNull("encodings", encodings);
        Checks.require(!encodings.isEmpty(), "encodings must not be empty, got 0");
        int b = encodings.size();
        int[] tok = new int[b * length];
        double[] num = new double[b * length];
        java.util.Arrays.fill(num, 1.0);
        int[] len = new int[b];
        for (int i = 0; i < b; i++) {
            int[] t = encodings.get(i).tokens();
            double[] x = encodings.get(i).numberInputs();
            Checks.require(t.length >= 1 && t.length <= length, "encoding %d must have 1..%d tokens, got %d", i,
                    length, t.length);
            System.arraycopy(t, 0, tok, i * length, t.length);
            System.arraycopy(x, 0, num, i * length, x.length);
            len[i] = t.length;
        }
        return new SequenceBatch(b, length, tok, num, len);
    }

    /**
     * Plain token sequences (numbers all 1) padded to L.
     *
     * @throws IllegalArgumentException if the list is empty, a sequence is longer than L or empty, or holds PAD
     */
    public static SequenceBatch ofTokens(List<int[]> sequences, int length) {
        Checks.notNull("sequences", sequences);
        Checks.require(!sequences.isEmpty(), "sequences must not be empty, got 0");
        int b = sequences.size();
        int[] tok = new int[b * length];
        double[] num = new double[b * length];
        java.util.Arrays.fill(num, 1.0);
        int[] len = new int[b];
        for (int i = 0; i < b; i++) {
            int[] t = sequences.get(i);
            Checks.require(t.length >= 1 && t.length <= length, "sequence %d must have 1..%d tokens, got %d", i,
                    length, t.length);
            for (int v : t) {
                Checks.require(v != PAD, "sequence %d must not contain the padding id %d", i, PAD);
            }
            System.arraycopy(t, 0, tok, i * length, t.length);
            len[i] = t.length;
        }
        return new SequenceBatch(b, length, tok, num, len);
    }

    /** The packed rows {@code [B][2L]}: ids then numbers (padding ids PAD, padding numbers 1). */
    public double[][] toRows() {
        double[][] rows = new double[batch][2 * length];
        for (int b = 0; b < batch; b++) {
            for (int t = 0; t < length; t++) {
                boolean real = t < lengths[b];
                rows[b][t] = real ? tokens[b * length + t] : PAD;
                rows[b][length + t] = real ? numbers[b * length + t] : 1.0;
            }
        }
        return rows;
    }

    /**
     * Unpacks rows of width 2L (see the class description).
     *
     * @param rows   {@code [B, 2L]} FLOAT or DOUBLE, c-ordered
     * @param length L
     * @throws IllegalArgumentException if the width is not 2L, an id is not a non-negative integer, or a row starts
     *                                  with PAD
     */
    public static SequenceBatch fromRows(INDArray rows, int length) {
        Checks.rank("rows", rows, 2);
        Checks.require(rows.size(1) == 2L * length, "rows must have width 2L = %d, got %d", 2 * length, rows.size(1));
        int b = Math.toIntExact(rows.size(0));
        double[] v = Host.doubles(rows); // [B * 2L]
        int[] tok = new int[b * length];
        double[] num = new double[b * length];
        int[] len = new int[b];
        for (int i = 0; i < b; i++) {
            int n = 0;
            for (int t = 0; t < length; t++) {
                double id = v[i * 2 * length + t];
                int k = (int) id;
                if (k != id || k < 0) {
                    throw new IllegalArgumentException("token id at row " + i + ", position " + t
                            + " must be a non-negative integer, got " + id);
                }
                tok[i * length + t] = k;
                num[i * length + t] = v[i * 2 * length + length + t];
                if (k != PAD && n == t) {
                    n++;
                }
            }
            len[i] = n;
        }
        return new SequenceBatch(b, length, tok, num, len);
    }
}
