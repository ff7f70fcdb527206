package io.regheads.tokenizers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RepeatedTokenizerTest {

    @Test
    void workedExampleAndTies() {
        RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(10, 2), 3);
        assertArrayEquals(new int[] {4, 7, 4, 7, 4, 7}, tok.encode(0.47));
        assertArrayEquals(new int[] {4, 7}, tok.vote(new int[] {4, 7, 5, 7, 4, 1}));
        assertEquals(0.475, tok.decode(new int[] {4, 7, 5, 7, 4, 1}), 1e-15);
        assertArrayEquals(new int[] {1, 2}, tok.vote(new int[] {1, 2, 3, 4, 5, 6}));
        assertEquals(6, tok.sequenceLength());
        assertEquals(10, tok.vocabularySize());
    }

    /** Exhaustive for binary inner K=2, r=3: the vote equals a naive per-position majority. */
    @Test
    void hardVoteEqualsNaiveMajorityExhaustively() {
        RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(2, 2), 3);
        for (int code = 0; code < 64; code++) {
            int[] t = new int[6];
            for (int p = 0; p < 6; p++) {
                t[p] = code >> p & 1;
            }
            for (int j = 0; j < 2; j++) {
                int ones = t[j] + t[2 + j] + t[4 + j];
                assertEquals(ones >= 2 ? 1 : 0, tok.vote(t)[j]);
            }
            double d = tok.decode(t);
            assertArrayEquals(tok.encode(d), tok.encode(tok.inner().decode(tok.vote(t))));
        }
    }

    @Test
    void votesRespectInnerMasks() {
        UnnormalizedTokenizer inner = UnnormalizedTokenizer.of(10, 1, 2);
        RepeatedTokenizer tok = new RepeatedTokenizer(inner, 3);
        int[] zero = inner.encode(0.0);       // + + 0 0 0
        int[] neg = inner.encode(-0.51);      // - - 1 5 1
        int[] pos = inner.encode(52);         // + + 1 5 2
        int[] t = new int[15];
        System.arraycopy(zero, 0, t, 0, 5);
        System.arraycopy(neg, 0, t, 5, 5);
        System.arraycopy(pos, 0, t, 10, 5);
        // per position: + (2 of 3), + (2 of 3), exponent tie 0/1/1 -> 1, mantissa 0/5/5 -> 5, 0/1/2 tie -> 0
        assertArrayEquals(new int[] {10, 10, 1, 5, 0}, tok.vote(t));
        assertEquals(50.0, tok.decode(t), 0.0);
        // a plain per-position vote could give m1 = 0 with a non-zero exponent; the masks forbid it
        int[] u = new int[15];
        System.arraycopy(zero, 0, u, 0, 5);
        System.arraycopy(zero, 0, u, 5, 5);
        System.arraycopy(pos, 0, u, 10, 5);
        u[2] = 1;
        u[7] = 1; // exponent 1 wins; m1 = 0 has two votes but is not allowed after it, so 5 (one vote) wins
        assertArrayEquals(new int[] {10, 10, 1, 5, 0}, tok.vote(u));
        // masks of block 2 follow the inner masks of that block
        int[] prefix = new int[15];
        System.arraycopy(neg, 0, prefix, 0, 5);
        prefix[5] = 10;
        prefix[6] = 11;
        assertArrayEquals(inner.allowed(2, new int[] {10, 11}), tok.allowed(7, prefix));
    }

    /** Exhaustive: every mask-following sequence of (B=3, E=1, M=2) repeated twice decodes to a valid number. */
    @Test
    void everyMaskFollowingSequenceDecodes() {
        UnnormalizedTokenizer inner = UnnormalizedTokenizer.of(3, 1, 2);
        RepeatedTokenizer tok = new RepeatedTokenizer(inner, 2);
        int[] count = {0};
        walk(tok, new int[10], 0, count);
        assertEquals(61 * 61, count[0]); // blocks are independent: 61 inner spellings each
    }

    private static void walk(RepeatedTokenizer tok, int[] prefix, int pos, int[] count) {
        if (pos == prefix.length) {
            count[0]++;
            int[] voted = tok.vote(prefix);
            double d = tok.decode(prefix);
            // the vote is a valid inner spelling of d, and equals block 0 unless block 1 wins a tie with smaller ids
            assertArrayEquals(voted, tok.inner().encode(d));
            for (int j = 0; j < 5; j++) {
                assertTrue(voted[j] == prefix[j] || voted[j] == prefix[5 + j] || !tok.inner().allowed(j, voted)[
                        prefix[j]]);
            }
            return;
        }
        boolean[] mask = tok.allowed(pos, prefix);
        for (int v = 0; v < mask.length; v++) {
            if (mask[v]) {
                prefix[pos] = v;
                walk(tok, prefix, pos + 1, count);
            }
        }
    }

    @Test
    void softVoteSumsProbabilities() {
        RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(3, 1), 3);
        double[][] probs = {{0.6, 0.4, 0.0}, {0.1, 0.5, 0.4}, {0.1, 0.45, 0.45}};
        // by hand: token 0: 0.8, token 1: 1.35, token 2: 0.85 -> 1; a hard vote of the argmaxes 0,1,1 also gives 1
        assertArrayEquals(new int[] {1}, tok.softVote(probs));
        assertEquals(0.5, tok.decodeSoft(probs), 1e-15);
        double[][] flip = {{0.9, 0.1, 0.0}, {0.0, 0.55, 0.45}, {0.0, 0.45, 0.55}};
        // hard vote of argmaxes 0,1,2 ties -> 0; soft: 0.9, 1.1, 1.0 -> 1
        assertArrayEquals(new int[] {1}, tok.softVote(flip));
        assertThrows(IllegalArgumentException.class, () -> tok.softVote(new double[2][3]));
        assertThrows(IllegalArgumentException.class,
                () -> tok.softVote(new double[][] {{0, 0, Double.NaN}, {0, 0, 0}, {0, 0, 0}}));
    }

    @Test
    void millionRandomDoublesRoundTrip() {
        RepeatedTokenizer tok = new RepeatedTokenizer(UnnormalizedTokenizer.of(10, 1, 4), 3);
        SplittableRandom rng = new SplittableRandom(9);
        UnnormalizedTokenizer inner = (UnnormalizedTokenizer) tok.inner();
        for (int i = 0; i < 1_000_000; i++) {
            double y = Samples.mixed(rng, 10, 1e-10, 1e11);
            int[] t = tok.encode(y);
            assertEquals(inner.decode(inner.encode(y)), tok.decode(t), 0.0);
        }
        assertThrows(IllegalArgumentException.class, () -> new RepeatedTokenizer(tok, 0));
    }
}
