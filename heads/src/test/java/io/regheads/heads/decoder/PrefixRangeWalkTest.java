package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.testing.GradientCheck;
import io.regheads.core.token.Interval;
import io.regheads.core.token.PrefixRanges;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Tree-walk CDF and quantiles ({@code PrefixRangeWalk}) of unnormalized decoders against a brute-force reference: every valid sequence,
 * scored by the full teacher-forced forward with a naive masked log-softmax (independent of the cached decoder
 * state and of the walk), sorted by interval.
 */
class PrefixRangeWalkTest {
    private static final int D = DecoderDistributionTest.D;

    /** A valid number sequence with its interval and its probability per row. */
    record Leaf(int[] tokens, Interval cell, double[] prob) {}

    private static void all(UnnormalizedTokenizer tok, int[] prefix, int pos, List<int[]> out) {
        if (pos == prefix.length) {
            out.add(prefix.clone());
            return;
        }
        boolean[] a = tok.allowed(pos, prefix);
        for (int k = 0; k < a.length; k++) {
            if (a[k]) {
                prefix[pos] = k;
                all(tok, prefix, pos + 1, out);
            }
        }
    }

    /** Every valid sequence (specials included) with its probability per row; numbers sorted by cell. */
    static List<Leaf> leaves(DecoderHead h, UnnormalizedTokenizer tok, INDArray phi, List<double[]> special) {
        List<int[]> seqs = new ArrayList<>();
        all(tok, new int[tok.sequenceLength()], 0, seqs);
        int rows = (int) phi.size(0);
        int t = tok.sequenceLength();
        int v = tok.vocabularySize();
        int n = seqs.size();
        List<Leaf> out = new ArrayList<>();
        double[][] prob = new double[n][rows];
        for (int r = 0; r < rows; r++) {
            INDArray rep = phi.getRow(r).reshape(1, D).repeat(0, n).reshape(n, D).dup('c');
            int[] tokens = new int[n * t];
            for (int i = 0; i < n; i++) {
                System.arraycopy(seqs.get(i), 0, tokens, i * t, t);
            }
            TokenLogits o = (TokenLogits) h.forward(rep, new Targets.Tokens(tokens, null, n), Arena.none()).output();
            for (int i = 0; i < n; i++) {
                double lp = 0;
                for (int k = 0; k < t; k++) {
                    boolean[] mask = tok.allowed(k, seqs.get(i));
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < v; j++) {
                        if (mask[j]) {
                            max = Math.max(max, o.logits().getDouble(i, k, j));
                        }
                    }
                    double s = 0;
                    for (int j = 0; j < v; j++) {
                        if (mask[j]) {
                            s += Math.exp(o.logits().getDouble(i, k, j) - max);
                        }
                    }
                    lp += o.logits().getDouble(i, k, tokens[i * t + k]) - max - Math.log(s);
                }
                prob[i][r] = Math.exp(lp);
            }
        }
        for (int i = 0; i < n; i++) {
            if (Double.isFinite(tok.decode(seqs.get(i)))) {
                out.add(new Leaf(seqs.get(i), tok.interval(seqs.get(i)), prob[i]));
            } else {
                special.add(prob[i]);
            }
        }
        out.sort(Comparator.comparingDouble(l -> l.cell().lo()));
        return out;
    }

    private static double bruteCdf(List<Leaf> ls, int r, double y) {
        double c = 0;
        for (Leaf l : ls) {
            c += l.prob()[r] * Math.min(1, Math.max(0, (y - l.cell().lo()) / l.cell().width()));
        }
        return c;
    }

    private static double bruteQuantile(List<Leaf> ls, int r, double p) {
        double c = 0;
        for (Leaf l : ls) {
            double q = l.prob()[r];
            if (q > 0 && c + q >= p) {
                return l.cell().lo() + (p - c) / q * l.cell().width();
            }
            c += q;
        }
        return ls.get(ls.size() - 1).cell().hi();
    }

    private static void compare(UnnormalizedConfig config, long seed) {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(config);
        DecoderHead h = DecoderDistributionTest.head(tok, seed);
        INDArray phi = GradientCheck.random(seed + 1, 2.0, 3, D);
        DecoderDistribution d = h.distribution(phi);
        List<double[]> special = new ArrayList<>();
        List<Leaf> ls = leaves(h, tok, phi, special);
        double top = ls.get(ls.size() - 1).cell().hi();
        // the distribution describes Y given Y finite: the brute-force masses are divided by the finite mass
        double[] finite = new double[3];
        for (int r = 0; r < 3; r++) {
            for (Leaf l : ls) {
                finite[r] += l.prob()[r];
            }
        }
        assertEquals(ls.get(0).cell().lo(), d.supportLowerBound()[0], 0.0);
        assertEquals(top, d.supportUpperBound()[0], 0.0);
        // y: cell ends, cell middles, zero, the zero cell's ends, points outside the support
        List<Double> ys = new ArrayList<>(List.of(0.0, -0.0, top * 2, -top * 2, Double.POSITIVE_INFINITY));
        for (Leaf l : ls) {
            ys.add(l.cell().lo());
            ys.add(l.cell().lo() + 0.3 * l.cell().width());
        }
        for (double y : ys) {
            double[] yy = {y, y, y};
            double[] cdf = d.cumulativeProbability(yy);
            for (int r = 0; r < 3; r++) {
                assertEquals(bruteCdf(ls, r, y) / finite[r], cdf[r], 1e-9, config + " cdf at " + y + " row " + r);
            }
        }
        for (double p : new double[] {1e-4, 0.01, 0.05, 0.2, 0.37, 0.5, 0.63, 0.9, 0.95, 0.999}) {
            double[] q = d.inverseCumulativeProbability(p);
            for (int r = 0; r < 3; r++) {
                assertEquals(bruteQuantile(ls, r, p * finite[r]), q[r], 1e-9 * Math.max(1, Math.abs(q[r])),
                        config + " quantile " + p + " row " + r);
            }
        }
        if (!config.specialTokens()) {
            DecoderDistributionTest.tableAgreesWithTreeAlgorithms(h.distribution(GradientCheck.random(seed + 2, 2.0, 2, D),
                    new DecoderDistribution.Options(64, 0, 10_000)));
        } else {
            // the cdf of the finite part tops out at 1; the special outcomes carry the rest, in token order
            double[] up = d.cumulativeProbability(new double[] {top * 3, top * 3, top * 3});
            double[][] reported = {d.probabilityNaN(), d.probabilityPositiveInfinity(), d.probabilityNegativeInfinity()};
            for (int r = 0; r < 3; r++) {
                double sp = 0;
                for (int k = 0; k < 3; k++) {
                    sp += special.get(k)[r];
                    assertEquals(special.get(k)[r], reported[k][r], 1e-12, "special " + k);
                }
                assertTrue(sp > 1e-3, "the special tokens carry mass");
                assertEquals(1.0, up[r], 1e-9);
                assertEquals(1 - sp, d.probabilityFinite()[r], 1e-12);
            }
        }
    }

    @Test
    void treeWalkCdfAndQuantilesEqualBruteForce() {
        compare(UnnormalizedConfig.tiny(), 31); // B=3, E=1, M=2: exponents -1..1
        compare(new UnnormalizedConfig(2, 2, 2, false), 32); // exponents -3..3 over two digits
        compare(new UnnormalizedConfig(4, 1, 2, false), 33);
        compare(UnnormalizedConfig.tiny().withSpecialTokens(true), 34);
    }

    @Test
    void medianIsTheHalfQuantileAndRoundTripsThroughTheCdf() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 1, 3);
        DecoderHead h = DecoderDistributionTest.head(tok, 41);
        DecoderDistribution d = h.distribution(GradientCheck.random(42, 2.0, 4, D));
        double[] med = d.median();
        assertArrayEquals(d.inverseCumulativeProbability(0.5), med, 0.0);
        assertArrayEquals(new double[] {0.5, 0.5, 0.5, 0.5}, d.cumulativeProbability(med), 1e-9);
        for (double p : new double[] {0.02, 0.3, 0.8, 0.97}) {
            assertArrayEquals(new double[] {p, p, p, p}, d.cumulativeProbability(d.inverseCumulativeProbability(p)),
                    1e-9, "cdf(quantile(" + p + "))");
        }
    }

    /**
     * Normalized digits that hide their fixed-point structure and declare only prefix ranges ({@link PrefixRanges},
     * not {@code FixedPointDigits}; no detached sequence), so the distribution takes the tree walk instead of the
     * fixed-point path.
     */
    private record RangesOnly(NormalizedTokenizer inner) implements PrefixRanges {
        public int sequenceLength() {
            return inner.sequenceLength();
        }

        public int vocabularySize() {
            return inner.vocabularySize();
        }

        public int[] encode(double y) {
            return inner.encode(y);
        }

        public double decode(int[] tokens) {
            return inner.decode(tokens);
        }

        public double tokenValue(int token) {
            return inner.tokenValue(token);
        }

        public boolean[] allowed(int position, int[] prefix) {
            return inner.allowed(position, prefix);
        }

        public Interval interval(int[] tokens) {
            return inner.interval(tokens);
        }

        public String tokenString(int token) {
            return inner.tokenString(token);
        }

        @Override
        public boolean everySequenceValid() {
            return true;
        }

        @Override
        public Interval prefixRange(int[] prefix, int length) {
            return inner.prefixRange(prefix, length);
        }
    }

    /** The walk without a detached sequence gives the fixed-point path's CDF, quantiles and support. */
    @Test
    void walkWithoutADetachedSequenceEqualsTheFixedPointPath() {
        NormalizedTokenizer n = NormalizedTokenizer.of(3, 3);
        INDArray phi = GradientCheck.random(52, 2.0, 3, D);
        DecoderDistribution fixed = DecoderDistributionTest.head(n, 51).distribution(phi);
        DecoderDistribution walked = DecoderDistributionTest.head(new RangesOnly(n), 51).distribution(phi);
        assertArrayEquals(fixed.supportLowerBound(), walked.supportLowerBound(), 0.0);
        assertArrayEquals(fixed.supportUpperBound(), walked.supportUpperBound(), 0.0);
        for (double y : new double[] {0.0, 0.05, 1.0 / 3, 0.5, 0.71, 0.999, 1.0, -0.2, 1.5}) {
            double[] yy = {y, y, y};
            assertArrayEquals(fixed.cumulativeProbability(yy), walked.cumulativeProbability(yy), 1e-12, "cdf at " + y);
        }
        for (double p : new double[] {0.01, 0.2, 0.5, 0.8, 0.99}) {
            assertArrayEquals(fixed.inverseCumulativeProbability(p), walked.inverseCumulativeProbability(p), 1e-12,
                    "quantile " + p);
        }
    }
}
