package io.regheads.core.token;

import io.regheads.core.check.Checks;

/**
 * A tokenizer whose sequences repeat one inner spelling r times ({@code T = r T_inner}), a repetition code: the
 * copies may disagree in a generated sequence, so decoders vote. {@link #decode}, {@link #interval} and {@link
 * #decodeSoft} of such a tokenizer are those of the vote; {@link #vote} and {@link #votedTokenizer()} expose it, so a
 * decoder can tabulate the law of the vote instead of the law of the sequence.
 *
 * <p><b>A facet of {@link NumberTokenizer}.</b> It extends the interface, so a caller that asks {@code tok
 * instanceof Voting voting} holds the vote and the whole tokenizer contract in one typed reference. A tokenizer that
 * does not implement it spells each value once: its repetition count is 1 ({@link #repetitionsOf}) and every
 * sequence stands for itself. Implemented by the repetition code of any inner tokenizer.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Voting extends NumberTokenizer {

    /**
     * How many times a sequence repeats one inner spelling: r for a repetition code ({@code T = r T_inner}), the
     * product over nested codes. A code with one copy answers 1.
     *
     * @return {@code >= 1}
     */
    int repetitions();

    /**
     * The tokenizer whose sequences {@link #vote} returns: the inner tokenizer, or, if it votes too, its own {@code
     * votedTokenizer()} (so nested codes vote down to a tokenizer that spells each value once).
     *
     * @return a tokenizer with {@code repetitionsOf(votedTokenizer()) == 1}
     */
    NumberTokenizer votedTokenizer();

    /**
     * The one spelling of {@link #votedTokenizer()} that a full valid sequence stands for: the vote of its copies
     * (its {@link #decode} and {@link #interval} are those of the vote). So {@code votedTokenizer().decode(vote(t))
     * == decode(t)} and, for number sequences, {@code votedTokenizer().interval(vote(t))} is {@code interval(t)};
     * sequences with one vote share one interval, and sequences with different votes have disjoint intervals, which
     * is what lets a decoder tabulate the law of the vote.
     *
     * <p>Example (normalized base 10, K = 2, r = 3): {@code 4 7 5 7 4 1} votes {@code 4 7}.
     *
     * @param tokens {@code [T]} a valid sequence
     * @return {@code [T']} a fresh array, a valid sequence of {@link #votedTokenizer()}
     * @throws IllegalArgumentException on a null array or a wrong length (implementations may also refuse tokens
     *                                  outside the vocabulary)
     */
    int[] vote(int[] tokens);

    /**
     * The repetition count of any tokenizer: {@link #repetitions()} of a {@code Voting} tokenizer, 1 for every other
     * (it spells each value once).
     *
     * @param tokenizer any tokenizer
     * @return {@code >= 1}
     * @throws IllegalArgumentException if tokenizer is null
     */
    static int repetitionsOf(NumberTokenizer tokenizer) {
        Checks.notNull("tokenizer", tokenizer);
        return tokenizer instanceof Voting voting ? voting.repetitions() : 1;
    }
}
