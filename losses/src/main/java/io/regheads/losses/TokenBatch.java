package io.regheads.losses;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.check.Checks;
import io.regheads.core.head.Targets;
import java.util.Arrays;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The checked, resolved view of one token-loss call: logits, gradient and mask as host rows (row = one position,
 * {@code row = b * T + t}), the targets, the number tokens sorted by value and the per-position weights.
 * Package-private; built once per {@code accumulate} call, not thread-safe.
 */
final class TokenBatch {
    final int batch;
    final int positions;
    final int vocab;
    final HostRows logits;
    final HostRows gradient;
    /** The caller's gradient array, and the contiguous array the loops write (the same unless it was not). */
    private final INDArray gradientTarget;
    private final INDArray gradientWork;
    /** Null when every token is valid. */
    final HostRows mask;
    final int[] tokens;
    /** Null: label values come from the token values. */
    final double[] labelValues;
    final double[] tokenValues;
    /** Number-token ids sorted by value (ties by id), and their values. */
    final int[] numberIds;
    final double[] numberValues;
    /** {@code [T]} position weights (all 1 when none were given). */
    final double[] positionWeights;

    private TokenBatch(TokenLogits out, Targets.Tokens tgt, TokenLogits grad, double[] positionWeights) {
        this.batch = out.batchSize();
        this.positions = out.positions();
        this.vocab = out.vocabularySize();
        this.logits = HostRows.of("logits", readable(out.logits(), false), false);
        this.gradientTarget = grad.logits();
        this.gradientWork = contiguous(gradientTarget) ? gradientTarget : gradientTarget.dup('c');
        this.gradient = HostRows.of("gradient logits", gradientWork, true);
        this.mask = out.validMask() == null ? null : HostRows.of("validMask", readable(out.validMask(), true), false);
        this.tokens = tgt.tokens();
        this.labelValues = tgt.values();
        this.tokenValues = out.tokenValues();
        int count = 0;
        for (double v : tokenValues) {
            if (Double.isFinite(v)) {
                count++;
            }
        }
        Integer[] ids = new Integer[count];
        for (int j = 0, k = 0; j < vocab; j++) {
            if (Double.isFinite(tokenValues[j])) {
                ids[k++] = j;
            }
        }
        Arrays.sort(ids, (a, b) -> Double.compare(tokenValues[a], tokenValues[b]));
        this.numberIds = new int[count];
        this.numberValues = new double[count];
        for (int k = 0; k < count; k++) {
            numberIds[k] = ids[k];
            numberValues[k] = tokenValues[ids[k]];
        }
        if (positionWeights == null) {
            this.positionWeights = new double[positions];
            Arrays.fill(this.positionWeights, 1.0);
        } else {
            Checks.require(positionWeights.length == positions,
                    "positionWeights must have length T = %d (logits shape %s), got %d", positions,
                    Arrays.toString(out.logits().shape()), positionWeights.length);
            this.positionWeights = positionWeights;
        }
    }

    /**
     * Checks the arguments of a token loss and resolves them.
     *
     * @throws IllegalArgumentException naming the argument, the rule and the value
     */
    static TokenBatch of(String loss, TokenLogits out, Targets targets, HeadOutput gradient, double weight,
                         double[] perExample, double[] positionWeights) {
        Checks.finite("weight", weight);
        Checks.require(targets instanceof Targets.Tokens,
                "%s on TokenLogits needs Targets.Tokens, got %s", loss, kind(targets));
        Checks.require(gradient instanceof TokenLogits,
                "gradient must be TokenLogits like the output, got %s", kind(gradient));
        TokenLogits grad = (TokenLogits) gradient;
        Checks.shape("gradient logits", grad.logits(), out.logits().shape());
        Targets.Tokens tgt = (Targets.Tokens) targets;
        int b = out.batchSize();
        int t = out.positions();
        int v = out.vocabularySize();
        Checks.require(tgt.batchSize() == b, "targets batchSize must be B = %d, got %d", b, tgt.batchSize());
        Checks.require(tgt.tokens().length == b * t,
                "targets tokens must have length B * T = %d, got %d", b * t, tgt.tokens().length);
        Checks.notNull("perExample", perExample);
        Checks.require(perExample.length == b, "perExample must have length B = %d, got %d", b, perExample.length);
        int[] tokens = tgt.tokens();
        for (int i = 0; i < tokens.length; i++) {
            int k = tokens[i];
            if (k != Targets.IGNORE && (k < 0 || k >= v)) {
                throw new IllegalArgumentException("targets tokens must be in [0, " + v + ") or IGNORE ("
                        + Targets.IGNORE + "), got " + k + " at index " + i);
            }
        }
        double[] values = tgt.values();
        if (values != null) {
            for (int i = 0; i < values.length; i++) {
                Checks.require(!Double.isInfinite(values[i]),
                        "targets values must be finite or NaN (no number), got %s at index %d", values[i], i);
            }
        }
        return new TokenBatch(out, tgt, grad, positionWeights);
    }

    /**
     * An input array as the host loops read it: c-ordered and contiguous (else a copy), and for a mask FLOAT or
     * DOUBLE (a BOOL/INT/... mask is cast to FLOAT once per call). Logits of another type are rejected by {@link
     * HostRows#of}.
     */
    private static INDArray readable(INDArray array, boolean isMask) {
        INDArray a = array;
        if (isMask && a.dataType() != DataType.FLOAT && a.dataType() != DataType.DOUBLE) {
            a = a.castTo(DataType.FLOAT);
        }
        if (!contiguous(a)) {
            a = a.dup('c');
        }
        return a;
    }

    private static boolean contiguous(INDArray a) {
        return a.ordering() == 'c' && a.elementWiseStride() == 1;
    }

    /**
     * Makes the gradient visible in the caller's array: a no-op for a contiguous c-order gradient (written in
     * place); otherwise copies the work array back (one extra full-size array for such callers).
     */
    void commit() {
        gradient.flush();
        if (gradientWork != gradientTarget) {
            gradientTarget.assign(gradientWork);
        }
    }

    /** The token target at {@code row}, or {@link Targets#IGNORE}. */
    int token(int row) {
        return tokens[row];
    }

    /**
     * The numeric label at {@code row}: {@code values[row]} if given, else the target token's value; NaN when the
     * position is ignored or its label is not a number.
     */
    double labelValue(int row) {
        int k = tokens[row];
        if (k == Targets.IGNORE) {
            return Double.NaN;
        }
        return labelValues != null ? labelValues[row] : tokenValues[k];
    }

    /** Weight of the position of {@code row}. */
    double positionWeight(int row) {
        return positionWeights[row % positions];
    }

    /** Whether token {@code col} is allowed at {@code row}. */
    boolean valid(int row, int col) {
        return mask == null || mask.get(row, col) != 0;
    }

    /** "(b, t)" of a row, for messages. */
    String where(int row) {
        return "(b=" + row / positions + ", t=" + row % positions + ")";
    }

    static String kind(Object o) {
        return o == null ? "null" : o.getClass().getSimpleName();
    }
}
