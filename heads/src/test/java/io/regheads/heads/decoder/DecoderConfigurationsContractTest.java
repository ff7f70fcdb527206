package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.DistributionContract;
import io.regheads.core.testing.GradientCheck;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.Voting;
import io.regheads.tokenizers.HammingTokenizer;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.RepeatedTokenizer;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Every decoder configuration against the shared {@link DistributionContract}: normalized digits, sign-exponent-
 * mantissa tokens with and without the NaN/+Inf/-Inf tokens (and with a restricted exponent range), the Hamming code,
 * and repetition codes over each (the distribution of the voted value), on random untrained heads (spread-out
 * probabilities, the hard case for the tree algorithms). Where a tabulated form exists the contract runs on it (its
 * 200 000-point integration is one table lookup per point) after the table is shown to equal the direct answers.
 * With special tokens P(NaN), P(+Inf), P(-Inf) and P(finite) equal the brute-force sums over every valid sequence (for the non-repeated codes).
 */
class DecoderConfigurationsContractTest {
    private static final int D = DecoderDistributionTest.D;

    static Stream<Arguments> configurations() {
        UnnormalizedTokenizer plain = new UnnormalizedTokenizer(new UnnormalizedConfig(2, 1, 2, false));
        UnnormalizedTokenizer specials = new UnnormalizedTokenizer(new UnnormalizedConfig(2, 1, 2, true));
        UnnormalizedTokenizer ranged = new UnnormalizedTokenizer(new UnnormalizedConfig(4, 1, 2, true)
                .withRange(-1, 1, false));
        return Stream.of(Arguments.of("normalized B=4 K=2", NormalizedTokenizer.of(4, 2)),
                Arguments.of("unnormalized B=2 E=1 M=2", plain),
                Arguments.of("unnormalized B=2 E=1 M=2 with special tokens", specials),
                Arguments.of("unnormalized B=4 E=1 M=2 exponents [-1, 1], special tokens", ranged),
                Arguments.of("hamming K=4", new HammingTokenizer(4)),
                Arguments.of("repeated normalized r=2", new RepeatedTokenizer(NormalizedTokenizer.of(4, 2), 2)),
                Arguments.of("repeated hamming r=2", new RepeatedTokenizer(new HammingTokenizer(3), 2)),
                Arguments.of("repeated unnormalized r=2", new RepeatedTokenizer(plain, 2)),
                Arguments.of("repeated unnormalized r=2 with special tokens", new RepeatedTokenizer(specials, 2)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configurations")
    void meetsTheContract(String name, NumberTokenizer tok) {
        DecoderHead h = DecoderDistributionTest.head(tok, 211 + name.length());
        INDArray phi = GradientCheck.random(223 + name.length(), 2.0, 2, D);
        DecoderDistribution d = h.distribution(phi, new DecoderDistribution.Options(64, 0, 100_000));
        if (tok.hasSpecialTokens()) {
            double[] nan = d.probabilityNaN();
            double[] pos = d.probabilityPositiveInfinity();
            double[] neg = d.probabilityNegativeInfinity();
            double[] fin = d.probabilityFinite();
            double[][] brute = Voting.repetitionsOf(tok) > 1 ? null : specialMassByEnumeration(h, tok, phi);
            for (int r = 0; r < 2; r++) {
                assertTrue(nan[r] > 1e-4 && pos[r] > 1e-4 && neg[r] > 1e-4 && fin[r] > 0.05,
                        name + ": an untrained head spreads mass over every outcome");
                if (brute != null) { // a repeated code's votes are checked by brute force in DecoderDistributionTest
                    assertEquals(brute[r][0], nan[r], 1e-9, name + " P(NaN), row " + r);
                    assertEquals(brute[r][1], pos[r], 1e-9, name + " P(+Inf), row " + r);
                    assertEquals(brute[r][2], neg[r], 1e-9, name + " P(-Inf), row " + r);
                    assertEquals(brute[r][3], fin[r], 1e-9, name + " P(finite), row " + r);
                    assertEquals(1.0, brute[r][0] + brute[r][1] + brute[r][2] + brute[r][3], 1e-9, "enumeration");
                }
            }
        }
        boolean repeated = Voting.repetitionsOf(tok) > 1;
        if (!repeated) {
            DecoderDistributionTest.tableAgreesWithTreeAlgorithms(d);
            DistributionContract.verify(d.tabulated(), 20_000, 5);
        } else {
            DistributionContract.verify(d, 20_000, 5);
        }
    }

    /**
     * P(NaN), P(+Inf), P(-Inf), P(finite) by brute force: every valid token sequence of length T (the masks checked token by
     * token), its probability by the full teacher-forced forward and a naive masked log-softmax, summed by what it
     * decodes to. Independent of the cached path, the tree algorithms and the tokenizer's special-value bookkeeping.
     */
    private static double[][] specialMassByEnumeration(DecoderHead h, NumberTokenizer tok, INDArray phiRows) {
        int t = tok.sequenceLength();
        int v = tok.vocabularySize();
        int count = (int) Math.round(Math.pow(v, t));
        int rows = (int) phiRows.size(0);
        java.util.List<int[]> valid = new java.util.ArrayList<>();
        int[] seq = new int[t];
        for (int i = 0; i < count; i++) {
            for (int k = t - 1, x = i; k >= 0; k--, x /= v) {
                seq[k] = x % v;
            }
            if (valid(tok, seq)) {
                valid.add(seq.clone());
            }
        }
        int n = valid.size();
        int[] tokens = new int[n * t];
        for (int i = 0; i < n; i++) {
            System.arraycopy(valid.get(i), 0, tokens, i * t, t);
        }
        double[][] out = new double[rows][4];
        for (int r = 0; r < rows; r++) {
            INDArray phi = phiRows.getRow(r).reshape(1, D).repeat(0, n).reshape(n, D).dup('c');
            io.regheads.core.head.TokenLogits logits = (io.regheads.core.head.TokenLogits) h.forward(phi,
                    new io.regheads.core.head.Targets.Tokens(tokens, null, n), io.regheads.core.nn.Arena.none())
                    .output();
            for (int i = 0; i < n; i++) {
                int[] s = valid.get(i);
                double lp = 0;
                for (int k = 0; k < t; k++) {
                    boolean[] allowed = tok.allowed(k, java.util.Arrays.copyOf(s, k));
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < v; j++) {
                        max = allowed[j] ? Math.max(max, logits.logits().getDouble(i, k, j)) : max;
                    }
                    double sum = 0;
                    for (int j = 0; j < v; j++) {
                        sum += allowed[j] ? Math.exp(logits.logits().getDouble(i, k, j) - max) : 0;
                    }
                    lp += logits.logits().getDouble(i, k, s[k]) - max - Math.log(sum);
                }
                double y = tok.decode(s);
                int which = Double.isNaN(y) ? 0 : y == Double.POSITIVE_INFINITY ? 1
                        : y == Double.NEGATIVE_INFINITY ? 2 : 3;
                out[r][which] += Math.exp(lp);
            }
        }
        return out;
    }

    private static boolean valid(NumberTokenizer tok, int[] seq) {
        for (int k = 0; k < seq.length; k++) {
            if (!tok.allowed(k, java.util.Arrays.copyOf(seq, k))[seq[k]]) {
                return false;
            }
        }
        return true;
    }
}
