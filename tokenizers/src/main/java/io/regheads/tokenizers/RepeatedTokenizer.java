package io.regheads.tokenizers;

import io.regheads.core.check.Checks;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.Voting;
import java.util.function.UnaryOperator;

/**
 * Error-correcting repetition of any inner tokenizer (decoding-regression paper, Fig. 9): the inner sequence of
 * length {@code T} is written r times, {@code T' = r T}; the vocabulary and token values are the inner ones.
 *
 * <p><b>Masks.</b> Each block of T positions follows the inner masks on its own ({@code allowed(b T + j, prefix)} is
 * the inner {@code allowed(j, block b of prefix)}), so a model may generate disagreeing blocks; that is what the
 * votes correct. Therefore, unlike the plain contract, a mask-following sequence is not necessarily
 * {@code encode(y)} of any y; it still always decodes.
 *
 * <p><b>Hard vote</b> ({@link #vote}, used by {@link #decode}): left to right, at inner position j the token chosen
 * is the one appearing most often at position j across the r blocks, among the tokens the inner mask allows after the
 * already chosen prefix; ties go to the smaller token id; if none of the voted tokens is allowed, the smallest allowed
 * token. The result is always a valid inner sequence, decoded by the inner tokenizer.
 *
 * <p><b>Soft vote</b> ({@link #softVote}, {@link #decodeSoft}): the same walk, but a token's score is the sum over
 * blocks of its predicted probability at that position ({@code probabilities[b T + j][token]}), the argmax over
 * allowed tokens (ties to the smaller id).
 *
 * <p><b>Worked example</b> (inner = normalized B=10, K=2, r=3): {@code 0.47 -> 4 7 4 7 4 7}; the noisy
 * {@code 4 7 5 7 4 1} votes {@code 4} (two of three) then {@code 7} (two of three) and decodes to 0.475;
 * {@code 1 2 3 4 5 6} has three-way ties and votes {@code 1 2} (smallest ids).
 *
 * <p><b>Capabilities</b>: a {@link Voting} tokenizer, {@link #repetitions()} r times the inner one, so decoders vote
 * ({@link #vote} and {@link #votedTokenizer()}: the inner tokenizer); every sequence is valid if every inner one is;
 * special tokens if the inner tokenizer has them; no fixed-point digits and no prefix ranges (a sequence's interval
 * is its vote's, so intervals of different sequences coincide).
 *
 * <p>Immutable and thread-safe if the inner tokenizer is.
 */
public final class RepeatedTokenizer implements Voting {
    private final NumberTokenizer inner;
    private final int repeats;
    private final int innerLength;
    private final int vocab;
    private final UnaryOperator<int[]> innerVote; // the inner tokenizer's vote, or the identity if it spells once
    private final NumberTokenizer voted;

    /**
     * @param inner   the tokenizer to repeat
     * @param repeats r >= 1
     * @throws IllegalArgumentException if inner is null or r &lt; 1
     */
    public RepeatedTokenizer(NumberTokenizer inner, int repeats) {
        this.inner = Checks.notNull("inner", inner);
        this.repeats = Checks.atLeast("repeats", repeats, 1);
        this.innerLength = inner.sequenceLength();
        this.vocab = inner.vocabularySize();
        if (inner instanceof Voting v) {
            this.innerVote = v::vote;
            this.voted = v.votedTokenizer();
        } else {
            this.innerVote = UnaryOperator.identity();
            this.voted = inner;
        }
    }

    /** The repeated tokenizer. */
    public NumberTokenizer inner() {
        return inner;
    }

    /** r, the number of copies. */
    public int repeats() {
        return repeats;
    }

    @Override
    public int sequenceLength() {
        return repeats * innerLength;
    }

    @Override
    public int vocabularySize() {
        return vocab;
    }

    @Override
    public int[] encode(double y) {
        int[] once = inner.encode(y);
        int[] t = new int[sequenceLength()];
        for (int b = 0; b < repeats; b++) {
            System.arraycopy(once, 0, t, b * innerLength, innerLength);
        }
        return t;
    }

    /**
     * Majority vote per position, constrained by the inner masks (see the class comment), then, if the inner
     * tokenizer repeats too ({@link Voting}), its own {@link Voting#vote}.
     *
     * @param tokens {@code [r T]} token ids in {@code [0, V)}
     * @return {@code [T'']}, a valid sequence of {@link #votedTokenizer()} ({@code [T]} of the inner tokenizer when
     *         it does not repeat)
     * @throws IllegalArgumentException on a wrong length or a token outside the vocabulary
     */
    @Override
    public int[] vote(int[] tokens) {
        return innerVote.apply(voteCopies(tokens));
    }

    /**
     * @return the inner tokenizer, or its own {@code votedTokenizer()} if it votes too: the tokenizer whose sequences
     *         {@link #vote} returns
     */
    @Override
    public NumberTokenizer votedTokenizer() {
        return voted;
    }

    /** @return {@code inner.hasSpecialTokens()}: the copies spell what the inner tokenizer spells */
    @Override
    public boolean hasSpecialTokens() {
        return inner.hasSpecialTokens();
    }

    /**
     * The inner tokenizer's narrowest cell over all its sequences ({@code inner.narrowestCell} of the empty prefix),
     * whatever the prefix: later copies can outvote the tokens of a prefix, so every inner cell may be a completion's
     * interval.
     *
     * @throws IllegalArgumentException on a null or short prefix or a length outside [0, r T]
     */
    @Override
    public double narrowestCell(int[] prefix, int length) {
        Checks.notNull("prefix", prefix);
        Checks.inRange("length", length, 0, sequenceLength());
        Checks.require(prefix.length >= length, "prefix must hold at least %d tokens, got %d", length, prefix.length);
        return inner.narrowestCell(new int[innerLength], 0);
    }

    /** The per-position majority vote of the r copies (one level), a valid inner sequence. */
    private int[] voteCopies(int[] tokens) {
        Checks.notNull("tokens", tokens);
        Checks.require(tokens.length == sequenceLength(), "tokens must have length %d, got %d", sequenceLength(),
                tokens.length);
        for (int p = 0; p < tokens.length; p++) {
            Checks.require(tokens[p] >= 0 && tokens[p] < vocab, "tokens[%d] must be in [0, %d), got %d", p, vocab,
                    tokens[p]);
        }
        int[] chosen = new int[innerLength];
        double[] score = new double[vocab];
        for (int j = 0; j < innerLength; j++) {
            java.util.Arrays.fill(score, 0.0);
            for (int b = 0; b < repeats; b++) {
                score[tokens[b * innerLength + j]] += 1.0;
            }
            chosen[j] = argmaxAllowed(score, inner.allowed(j, chosen));
        }
        return chosen;
    }

    /**
     * Soft vote: per inner position the sum over blocks of the probabilities, argmax among allowed tokens.
     *
     * @param probabilities {@code [r T][V]} per-position probabilities (any non-negative finite scores work)
     * @return {@code [T]}, a valid inner sequence
     * @throws IllegalArgumentException on wrong shapes or non-finite entries
     */
    public int[] softVote(double[][] probabilities) {
        Checks.notNull("probabilities", probabilities);
        Checks.require(probabilities.length == sequenceLength(), "probabilities must have %d rows, got %d",
                sequenceLength(), probabilities.length);
        for (int p = 0; p < probabilities.length; p++) {
            Checks.notNull("probabilities[" + p + "]", probabilities[p]);
            Checks.require(probabilities[p].length == vocab, "probabilities[%d] must have length %d, got %d", p,
                    vocab, probabilities[p].length);
            Checks.allFinite("probabilities[" + p + "]", probabilities[p]);
        }
        int[] chosen = new int[innerLength];
        double[] score = new double[vocab];
        for (int j = 0; j < innerLength; j++) {
            java.util.Arrays.fill(score, 0.0);
            for (int b = 0; b < repeats; b++) {
                double[] row = probabilities[b * innerLength + j];
                for (int v = 0; v < vocab; v++) {
                    score[v] += row[v];
                }
            }
            chosen[j] = argmaxAllowed(score, inner.allowed(j, chosen));
        }
        return chosen;
    }

    /**
     * {@code inner.decode(softVote(probabilities))}: the soft vote of the r copies (a repeating inner tokenizer then
     * votes its own copies with its {@link NumberTokenizer#decode}).
     *
     * @param probabilities {@code [r T][V]} non-negative finite scores
     * @throws IllegalArgumentException as {@link #softVote}
     */
    @Override
    public double decodeSoft(double[][] probabilities) {
        return inner.decode(softVote(probabilities));
    }

    private static int argmaxAllowed(double[] score, boolean[] allowed) {
        int best = -1;
        for (int v = 0; v < score.length; v++) {
            if (allowed[v] && (best < 0 || score[v] > score[best])) {
                best = v;
            }
        }
        Checks.require(best >= 0, "inner tokenizer allows no token at a position");
        return best;
    }

    /** {@code inner.decode} of the copies' vote. */
    @Override
    public double decode(int[] tokens) {
        return inner.decode(voteCopies(tokens));
    }

    /** The inner interval of the copies' vote. */
    @Override
    public Interval interval(int[] tokens) {
        return inner.interval(voteCopies(tokens));
    }

    /**
     * The inner place values divided by r, in every block: the sum over all positions of {@code place * value} is
     * the mean over the blocks of the number each spells (null if the inner tokenizer has none).
     */
    @Override
    public double[] placeValues() {
        double[] in = inner.placeValues();
        if (in == null) {
            return null;
        }
        double[] p = new double[sequenceLength()];
        for (int b = 0; b < repeats; b++) {
            for (int j = 0; j < innerLength; j++) {
                p[b * innerLength + j] = in[j] / repeats;
            }
        }
        return p;
    }

    @Override
    public double tokenValue(int token) {
        return inner.tokenValue(token);
    }

    @Override
    public boolean[] allowed(int position, int[] prefix) {
        Checks.inRange("position", position, 0, sequenceLength() - 1);
        Checks.notNull("prefix", prefix);
        Checks.require(prefix.length >= position, "prefix must hold at least %d tokens, got %d", position,
                prefix.length);
        int block = position / innerLength;
        int j = position % innerLength;
        int[] blockPrefix = new int[j];
        System.arraycopy(prefix, block * innerLength, blockPrefix, 0, j);
        return inner.allowed(j, blockPrefix);
    }

    /** @return {@code inner.everySequenceValid()}: each block follows the inner masks on its own */
    @Override
    public boolean everySequenceValid() {
        return inner.everySequenceValid();
    }

    /** @return {@code r * Voting.repetitionsOf(inner)} */
    @Override
    public int repetitions() {
        return repeats * Voting.repetitionsOf(inner);
    }

    @Override
    public String tokenString(int token) {
        return inner.tokenString(token);
    }

    @Override
    public String toString() {
        return "RepeatedTokenizer[" + inner + ", repeats=" + repeats + "]";
    }
}
