package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.TokenLogits;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.testing.DistributionContract;
import io.regheads.core.testing.GradientCheck;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.tokenizers.NormalizedTokenizer;
import io.regheads.tokenizers.RepeatedTokenizer;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Exact inference against brute-force enumeration through the full (teacher-forced) forward. */
class DecoderDistributionTest {
    static final int D = 4;

    static DecoderHead head(NumberTokenizer tok, long seed) {
        return new DecoderHead(tok, D, new TransformerBlock.Config(8, 2, 16), 1, seed, DataType.DOUBLE);
    }

    /**
     * Brute force: probabilities of every one of the B^K sequences, by the full teacher-forced forward and a naive
     * masked log-softmax; independent of the cached path and of the tree algorithms.
     */
    static double[][] leafProbabilities(DecoderHead h, NumberTokenizer tok, INDArray phiRows, int count) {
        int rows = (int) phiRows.size(0);
        int t = tok.sequenceLength();
        int v = tok.vocabularySize();
        double[][] p = new double[rows][count];
        for (int r = 0; r < rows; r++) {
            INDArray phi = phiRows.getRow(r).reshape(1, D).repeat(0, count).reshape(count, D).dup('c');
            int[] tokens = new int[count * t];
            for (int i = 0; i < count; i++) {
                int x = i;
                for (int k = t - 1; k >= 0; k--) {
                    tokens[i * t + k] = x % v;
                    x /= v;
                }
            }
            TokenLogits out = (TokenLogits) h.forward(phi, new Targets.Tokens(tokens, null, count), Arena.none()).output();
            for (int i = 0; i < count; i++) {
                double lp = 0;
                for (int k = 0; k < t; k++) {
                    double max = Double.NEGATIVE_INFINITY;
                    for (int j = 0; j < v; j++) {
                        max = Math.max(max, out.logits().getDouble(i, k, j));
                    }
                    double s = 0;
                    for (int j = 0; j < v; j++) {
                        s += Math.exp(out.logits().getDouble(i, k, j) - max);
                    }
                    lp += out.logits().getDouble(i, k, tokens[i * t + k]) - max - Math.log(s);
                }
                p[r][i] = Math.exp(lp);
            }
        }
        return p;
    }

    @Test
    void treeWalkQuantilesExactMeanCdfAndDensityEqualBruteForce() {
        NormalizedTokenizer tok = NormalizedTokenizer.of(10, 3);
        DecoderHead h = head(tok, 21);
        INDArray phi = GradientCheck.random(5, 2.0, 2, D);
        DecoderDistribution d = h.distribution(phi);
        double[][] p = leafProbabilities(h, tok, phi, 1000);
        double width = 1e-3;
        for (int r = 0; r < 2; r++) {
            double total = 0;
            double mean = 0;
            for (int i = 0; i < 1000; i++) {
                total += p[r][i];
                mean += p[r][i] * (i + 0.5) * width;
            }
            assertEquals(1.0, total, 1e-12);
            DecoderDistribution.MeanEstimate exact = d.exactMean(0);
            assertEquals(mean, exact.mean()[r], 1e-9, "exact mean");
            assertEquals(0.0, exact.errorBound()[r]);
            // pruned: the certified bound holds and stays within the tolerance (the budget is global per row)
            for (double tol : new double[] {1e-5, 1e-4, 1e-3, 1e-2, 0.05}) {
                DecoderDistribution.MeanEstimate pruned = d.exactMean(tol);
                assertTrue(Math.abs(pruned.mean()[r] - mean) <= pruned.errorBound()[r] + 1e-15,
                        "pruned " + pruned.mean()[r] + " +- " + pruned.errorBound()[r] + " vs " + mean);
                assertTrue(pruned.errorBound()[r] <= tol * (1 + 1e-12), "bound " + pruned.errorBound()[r] + " > tolerance " + tol);
                if (tol >= 1e-3) { // the budget is used: some prefixes were left unexpanded
                    assertTrue(pruned.errorBound()[r] > 0, "tolerance " + tol + " pruned nothing");
                }
            }
            for (double q : new double[] {0.001, 0.05, 0.25, 0.5, 0.9, 0.999}) {
                double c = 0;
                int j = 0;
                while (c + p[r][j] < q) {
                    c += p[r][j];
                    j++;
                }
                double brute = (j + (q - c) / p[r][j]) * width;
                assertEquals(brute, d.inverseCumulativeProbability(q)[r], 1e-9, "quantile " + q);
            }
        }
        // the same expansion split into parts of at most 7 prefixes per decoder step (depth first)
        for (double tol : new double[] {0, 1e-3}) {
            double[] mean = new double[2];
            double[] bound = new double[2];
            MeanExpander.expand(d.start(), 0, 2, new double[] {tol, tol}, new MeanExpander.Sums(mean, bound,
                    new double[2]), MeanExpander.Tree.NORMALIZED, new MeanExpander.Limits(7, Integer.MAX_VALUE));
            for (int r = 0; r < 2; r++) {
                double brute = 0;
                for (int i = 0; i < 1000; i++) {
                    brute += p[r][i] * (i + 0.5) * width;
                }
                assertTrue(Math.abs(mean[r] - brute) <= bound[r] + 1e-12 && bound[r] <= tol * (1 + 1e-12),
                        "split expansion " + mean[r] + " +- " + bound[r] + " vs " + brute);
                if (tol == 0) {
                    assertEquals(brute, mean[r], 1e-9, "split expansion, whole tree");
                }
            }
        }
        double[] y = {0.1234, 0.87};
        double[] cdf = d.cumulativeProbability(y);
        double[] ld = d.logDensity(y);
        for (int r = 0; r < 2; r++) {
            int bin = (int) Math.floor(y[r] * 1000);
            double c = 0;
            for (int i = 0; i < bin; i++) {
                c += p[r][i];
            }
            c += p[r][bin] * (y[r] * 1000 - bin);
            assertEquals(c, cdf[r], 1e-9, "cdf");
            assertEquals(Math.log(p[r][bin] / width), ld[r], 1e-9, "log density");
        }
        assertArrayEquals(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY},
                d.logDensity(new double[] {-0.1, 1.1}));
        assertArrayEquals(new double[] {0, 1}, d.cumulativeProbability(new double[] {-0.1, 1.1}));
    }

    /** A tokenizer too large to enumerate: densities still come from one teacher-forced pass. */
    @Test
    void largeUnnormalizedLogDensityEqualsTheMaskedFullForward() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 2, 3);
        DecoderHead h = head(tok, 51);
        double[] y = {-1.25e-7, 3.5, 0.0, 1e300};
        INDArray phi = GradientCheck.random(12, 1.0, y.length, D);
        DecoderDistribution d = h.distribution(phi);
        double[] ld = d.logDensity(y);
        Targets.Tokens t = (Targets.Tokens) h.targets(new double[] {y[0], y[1], y[2], 1.0});
        TokenLogits out = (TokenLogits) h.forward(phi, t, Arena.none()).output();
        int tt = tok.sequenceLength();
        for (int r = 0; r < 3; r++) {
            double lp = 0;
            for (int k = 0; k < tt; k++) {
                double s = 0;
                for (int j = 0; j < tok.vocabularySize(); j++) {
                    if (out.validMask().getDouble(r, k, j) > 0) {
                        s += Math.exp(out.logits().getDouble(r, k, j));
                    }
                }
                lp += out.logits().getDouble(r, k, t.tokens()[r * tt + k]) - Math.log(s);
            }
            int[] seq = java.util.Arrays.copyOfRange(t.tokens(), r * tt, r * tt + tt);
            assertEquals(lp - Math.log(tok.interval(seq).width()), ld[r], 1e-9, "row " + r);
        }
        // 1e300 overflows to the largest value, whose interval does not contain it: outside the support
        assertEquals(Double.NEGATIVE_INFINITY, ld[3]);
        // by hand: the largest value 9.99e99 has quantum 1e97, so its cell ends at 9.995e99 (no enumeration)
        assertEquals(-9.995e99, d.supportLowerBound()[0], 1e87);
        assertEquals(9.995e99, d.supportUpperBound()[0], 1e87);
        // quantiles and the cdf walk the tree (PrefixRangeWalkTest checks them against enumeration)
        assertArrayEquals(new double[] {0.5, 0.5, 0.5, 0.5}, d.cumulativeProbability(d.median()), 1e-9);
        // the mean expands the tree with prefix value ranges (no enumeration of the 2 * 199 * 900 + 1 sequences):
        // with at most 256 prefixes per row and level it is not certified to the tolerance, but its bound is reported
        DecoderDistribution.MeanEstimate m = h.distribution(phi, new DecoderDistribution.Options(8, 1e-9, 256))
                .exactMean(1e-9);
        for (int r = 0; r < y.length; r++) {
            assertTrue(Double.isFinite(m.mean()[r]) && m.errorBound()[r] > 1e-9 && m.errorBound()[r] < 9.995e99,
                    m.mean()[r] + " +- " + m.errorBound()[r]);
        }
    }

    @Test
    void beamSearchFindsTheMostProbableSequenceWhenWideEnough() {
        NormalizedTokenizer tok = NormalizedTokenizer.of(4, 3);
        DecoderHead h = head(tok, 8);
        INDArray phi = GradientCheck.random(9, 3.0, 3, D);
        DecoderDistribution d = h.distribution(phi, new DecoderDistribution.Options(16, 0, 1000));
        double[][] p = leafProbabilities(h, tok, phi, 64);
        for (int r = 0; r < 3; r++) {
            int best = 0;
            for (int i = 1; i < 64; i++) {
                best = p[r][i] > p[r][best] ? i : best;
            }
            assertEquals((best + 0.5) / 64, d.mode()[r], 1e-12);
            assertEquals(Math.log(p[r][best]), d.sampling().beamSearch(16).logProbability()[r], 1e-9);
        }
    }

    @Test
    void normalizedDistributionMeetsTheContract() {
        DecoderHead h = head(NormalizedTokenizer.of(4, 2), 13);
        DecoderDistribution d = h.distribution(GradientCheck.random(3, 2.0, 2, D), new DecoderDistribution.Options(16, 0, 1000));
        tableAgreesWithTreeAlgorithms(d);
        DistributionContract.verify(d.tabulated(), 20_000, 5);
    }

    @Test
    void unnormalizedDistributionMeetsTheContract() {
        DecoderHead h = head(new UnnormalizedTokenizer(new UnnormalizedConfig(2, 1, 2, false)), 17);
        DecoderDistribution d = h.distribution(GradientCheck.random(4, 2.0, 2, D), new DecoderDistribution.Options(64, 0, 1000));
        tableAgreesWithTreeAlgorithms(d);
        DistributionContract.verify(d.tabulated(), 20_000, 6);
    }

    /**
     * The contract's 200k-point integration is run on the tabulated form (one table lookup per point); here the
     * tabulated and the direct (teacher-forced / tree-walk) answers are shown to be the same.
     */
    static void tableAgreesWithTreeAlgorithms(DecoderDistribution d) {
        DecoderDistribution tab = d.tabulated();
        assertArrayEquals(d.supportLowerBound(), tab.supportLowerBound());
        assertArrayEquals(d.supportUpperBound(), tab.supportUpperBound());
        double lo = d.supportLowerBound()[0];
        double hi = d.supportUpperBound()[0];
        for (double f : new double[] {0.01, 0.2, 0.37, 0.5, 0.77, 0.93}) {
            double[] y = {lo + f * (hi - lo), lo + (1 - f) * (hi - lo)};
            assertArrayEquals(tab.logDensity(y), d.logDensity(y), 1e-9, "log density at " + y[0]);
            assertArrayEquals(tab.cumulativeProbability(y), d.cumulativeProbability(y), 1e-9, "cdf at " + y[0]);
            assertArrayEquals(tab.inverseCumulativeProbability(f), d.inverseCumulativeProbability(f), 1e-9, "quantile " + f);
        }
        assertArrayEquals(tab.mean(), d.mean(), 1e-9);
        assertArrayEquals(tab.variance(), d.variance(), 1e-9);
    }

    @Test
    void nucleusKeepsTheSmallestSetReachingP() {
        // anchors (c) 7: p = [.5, .3, .15, .05], top_p 0.6 keeps two tokens; top_p 0.4 keeps the first alone
        double[] p = {0.15, 0.5, 0.05, 0.3};
        DecoderSampling.filter(p, 0, 0.6);
        assertArrayEquals(new double[] {0, 0.5 / 0.8, 0, 0.3 / 0.8}, p, 1e-15);
        double[] q = {0.15, 0.5, 0.05, 0.3};
        DecoderSampling.filter(q, 0, 0.4);
        assertArrayEquals(new double[] {0, 1, 0, 0}, q, 1e-15);
        double[] k = {0.15, 0.5, 0.05, 0.3};
        DecoderSampling.filter(k, 3, 1.0);
        assertArrayEquals(new double[] {0.15 / 0.95, 0.5 / 0.95, 0, 0.3 / 0.95}, k, 1e-15);
        double[] exact = {0.25, 0.25, 0.5};
        DecoderSampling.filter(exact, 0, 0.75); // 0.5 + 0.25 reaches 0.75 exactly: two tokens
        assertEquals(0, exact[0] * exact[1], 1e-15);
        assertEquals(2.0 / 3, exact[2], 1e-15);
    }

    @Test
    void harrellDavisWeightsMatchHandComputation() {
        // n = 3, a = 2: I_x(2, 2) = 3x^2 - 2x^3 -> I_{1/3} = 7/27, I_{2/3} = 20/27: weights 7/27, 13/27, 7/27
        assertArrayEquals(new double[] {7.0 / 27, 13.0 / 27, 7.0 / 27}, DecoderSampling.harrellDavisWeights(3), 1e-14);
    }

    @Test
    void sampleMeanAndMedianAgreeWithExactValues() {
        DecoderHead h = head(NormalizedTokenizer.of(4, 3), 31);
        DecoderDistribution d = h.distribution(GradientCheck.random(7, 2.0, 2, D));
        var rng = RandomSource.SPLIT_MIX_64.create(3);
        int n = 40_000;
        double[] sm = d.sampling().sampleMean(rng, n, DecoderSampling.Settings.plain());
        double[] hd = d.sampling().sampleMedian(rng, n, DecoderSampling.Settings.plain());
        double[] mean = d.mean();
        double[] sd = d.variance();
        double[] median = d.median();
        for (int r = 0; r < 2; r++) {
            double se = Math.sqrt(sd[r] / n);
            assertEquals(mean[r], sm[r], 5 * se + 1e-12, "sample mean");
            // sample values are leaf centres: the median agrees to a leaf width (1/64) plus sampling error
            assertEquals(median[r], hd[r], 1.0 / 64 + 5 * se, "Harrell-Davis median");
        }
    }

    /**
     * Prefix-shared sampling draws sequences with the model's (temperature, top-k, top-p transformed) sequence
     * probabilities, computed here from the brute-force leaf table: the conditional at a prefix is
     * {@code P(prefix, k) / P(prefix)}, tempered as {@code p^(1/tau)} renormalised, then filtered. Chi-square
     * goodness of fit (cells with expected count < 5 pooled; p-value by the regularized gamma function) must not
     * reject at 1e-6, and adjacent slots of a row must be as often equal as independent draws are
     * ({@code sum p^2}), not grouped by prefix.
     */
    @Test
    void prefixSharedSamplesFollowTheSequenceProbabilities() {
        NormalizedTokenizer tok = NormalizedTokenizer.of(4, 3);
        DecoderHead h = head(tok, 51);
        INDArray phi = GradientCheck.random(11, 2.0, 2, D);
        DecoderDistribution d = h.distribution(phi);
        double[][] leaf = leafProbabilities(h, tok, phi, 64);
        DecoderSampling.Settings[] settings = {DecoderSampling.Settings.plain(),
            new DecoderSampling.Settings(0.7, 3, 0.8)};
        int n = 30_000;
        var rng = RandomSource.SPLIT_MIX_64.create(17);
        for (DecoderSampling.Settings sp : settings) {
            int[][] seq = d.sampling().sampleSequences(rng, n, sp);
            for (int r = 0; r < 2; r++) {
                double[] expected = transformedLeafProbabilities(leaf[r], 4, 3, sp);
                long[] count = new long[64];
                int equalNeighbours = 0;
                for (int j = 0; j < n; j++) {
                    int[] q = seq[r * n + j];
                    count[(q[0] * 4 + q[1]) * 4 + q[2]]++;
                    if (j > 0 && java.util.Arrays.equals(q, seq[r * n + j - 1])) {
                        equalNeighbours++;
                    }
                }
                double chi2 = 0;
                int cells = 0;
                double pooledE = 0;
                long pooledO = 0;
                double sumSq = 0;
                for (int i = 0; i < 64; i++) {
                    double e = expected[i] * n;
                    sumSq += expected[i] * expected[i];
                    if (e < 5) {
                        pooledE += e;
                        pooledO += count[i];
                        assertTrue(expected[i] > 0 || count[i] == 0, "a filtered-out sequence was drawn");
                    } else {
                        chi2 += (count[i] - e) * (count[i] - e) / e;
                        cells++;
                    }
                }
                if (pooledE >= 5) {
                    chi2 += (pooledO - pooledE) * (pooledO - pooledE) / pooledE;
                    cells++;
                }
                double pValue = org.apache.commons.numbers.gamma.RegularizedGamma.Q.value((cells - 1) / 2.0, chi2 / 2);
                assertTrue(pValue > 1e-6, sp + " row " + r + ": chi2 " + chi2 + " on " + (cells - 1) + " df");
                double se = Math.sqrt(sumSq * (1 - sumSq) / (n - 1));
                assertEquals(sumSq, equalNeighbours / (double) (n - 1), 6 * se, "adjacent equal slots");
            }
        }
    }

    /** Leaf probabilities under per-node temperature, top-k and top-p, from the untransformed leaf table. */
    static double[] transformedLeafProbabilities(double[] leaf, int v, int t, DecoderSampling.Settings sp) {
        double[] out = new double[leaf.length];
        java.util.Arrays.fill(out, 1.0);
        for (int pos = 0; pos < t; pos++) {
            int span = (int) Math.pow(v, t - pos - 1); // leaves under one child of a prefix of length pos
            for (int pre = 0; pre < leaf.length; pre += span * v) {
                double[] c = new double[v];
                double total = 0;
                for (int k = 0; k < v; k++) {
                    for (int i = 0; i < span; i++) {
                        c[k] += leaf[pre + k * span + i];
                    }
                    c[k] = Math.pow(c[k], 1 / sp.temperature());
                    total += c[k];
                }
                for (int k = 0; k < v; k++) {
                    c[k] /= total;
                }
                // naive top-k then nucleus: sort descending, keep k, then the shortest head reaching topP
                Integer[] order = new Integer[v];
                for (int k = 0; k < v; k++) {
                    order[k] = k;
                }
                final double[] cc = c;
                java.util.Arrays.sort(order, (a, bb) -> Double.compare(cc[bb], cc[a]));
                int keep = sp.topK() == 0 ? v : sp.topK();
                double kept = 0;
                for (int j = 0; j < keep; j++) {
                    kept += c[order[j]];
                }
                double acc = 0;
                int nucleus = 0;
                while (nucleus < keep && acc < sp.topP() * kept) {
                    acc += c[order[nucleus++]];
                }
                double[] f = new double[v];
                for (int j = 0; j < nucleus; j++) {
                    f[order[j]] = c[order[j]] / acc;
                }
                for (int k = 0; k < v; k++) {
                    for (int i = 0; i < span; i++) {
                        out[pre + k * span + i] *= f[k];
                    }
                }
            }
        }
        return out;
    }

    /** Naive majority vote per inner position over the r blocks (ties to the smaller token), no masks. */
    static int[] naiveVote(int[] seq, int r, int inner, int v) {
        int[] out = new int[inner];
        for (int j = 0; j < inner; j++) {
            int[] count = new int[v];
            for (int k = 0; k < r; k++) {
                count[seq[k * inner + j]]++;
            }
            int best = 0;
            for (int k = 1; k < v; k++) {
                best = count[k] > count[best] ? k : best;
            }
            out[j] = best;
        }
        return out;
    }

    /** Greedy decoding by brute force: argmax of the full teacher-forced forward, one position at a time. */
    static int[] bruteGreedy(DecoderHead h, INDArray phiRow, double[][] probsOut) {
        NumberTokenizer tok = h.tokenizer();
        int t = tok.sequenceLength();
        int v = tok.vocabularySize();
        int[] seq = new int[t];
        for (int p = 0; p < t; p++) {
            TokenLogits out = (TokenLogits) h.forward(phiRow, new Targets.Tokens(seq.clone(), null, 1), Arena.none()).output();
            double max = Double.NEGATIVE_INFINITY;
            int best = 0;
            for (int k = 0; k < v; k++) {
                double z = out.logits().getDouble(0, p, k);
                if (z > max) {
                    max = z;
                    best = k;
                }
            }
            double s = 0;
            for (int k = 0; k < v; k++) {
                s += Math.exp(out.logits().getDouble(0, p, k) - max);
            }
            for (int k = 0; k < v; k++) {
                probsOut[p][k] = Math.exp(out.logits().getDouble(0, p, k) - max) / s;
            }
            seq[p] = best;
        }
        return seq;
    }

    /**
     * {@code vote(false)} is the naive majority vote of the brute-force greedy sequence, {@code vote(true)} the
     * argmax of the summed probabilities along it; where the greedy blocks agree (a head trained on one value) both
     * votes and the distribution's mode recover that value.
     */
    @Test
    void repetitionVotesRecoverTheGreedySequence() {
        RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(4, 2), 3);
        DecoderHead h = head(tok, 41);
        INDArray phi = GradientCheck.random(8, 2.0, 3, D);
        DecoderDistribution d = h.distribution(phi);
        double[] hard = d.sampling().vote(false);
        double[] soft = d.sampling().vote(true);
        int disagreeing = 0;
        for (int r = 0; r < 3; r++) {
            double[][] probs = new double[6][4];
            int[] greedy = bruteGreedy(h, phi.getRow(r).reshape(1, D), probs);
            int[] voted = naiveVote(greedy, 3, 2, 4);
            assertEquals((voted[0] * 4 + voted[1] + 0.5) / 16, hard[r], 1e-12, "row " + r + " greedy " + java.util.Arrays.toString(greedy));
            int[] softVoted = new int[2];
            for (int j = 0; j < 2; j++) {
                double[] score = new double[4];
                for (int k = 0; k < 3; k++) {
                    for (int c = 0; c < 4; c++) {
                        score[c] += probs[k * 2 + j][c];
                    }
                }
                for (int c = 1; c < 4; c++) {
                    softVoted[j] = score[c] > score[softVoted[j]] ? c : softVoted[j];
                }
            }
            assertEquals((softVoted[0] * 4 + softVoted[1] + 0.5) / 16, soft[r], 1e-12, "soft vote, row " + r);
            disagreeing += greedy[0] != greedy[2] || greedy[0] != greedy[4] || greedy[1] != greedy[3] ? 1 : 0;
        }
        assertTrue(disagreeing > 0, "the random head's greedy blocks should disagree somewhere (the vote matters)");
        assertThrows(IllegalArgumentException.class, () -> head(NormalizedTokenizer.of(4, 2), 1)
                .distribution(GradientCheck.random(8, 2.0, 1, D)).sampling().vote(true));

        // trained on the single value 0.59 (bin 9 = digits 2 1): the greedy blocks agree and every summary finds it
        DecoderHead fit = head(tok, 43);
        INDArray ones = org.nd4j.linalg.factory.Nd4j.ones(DataType.DOUBLE, 8, D);
        double[] y = new double[8];
        java.util.Arrays.fill(y, 0.59);
        Targets t = fit.targets(y);
        io.regheads.core.optim.AdamW opt = new io.regheads.core.optim.AdamW(fit.params(), 1e-2);
        for (int step = 0; step < 60; step++) {
            fit.params().forEach(io.regheads.core.nn.Param::zeroGrad);
            io.regheads.core.head.RegressionHead.Forward fw = fit.forward(ones, t, Arena.none());
            io.regheads.core.head.HeadOutput g = fw.output().zerosLike();
            io.regheads.losses.Losses.ce().accumulate(fw.output(), t, 1.0, g, new double[8]);
            fit.backward(fw, g, Arena.none());
            opt.step();
        }
        INDArray one = ones.getRow(0).reshape(1, D);
        int[] greedy = bruteGreedy(fit, one, new double[6][4]);
        assertArrayEquals(new int[] {2, 1, 2, 1, 2, 1}, greedy);
        DecoderDistribution fd = fit.distribution(one);
        assertEquals(9.5 / 16, fd.sampling().vote(false)[0], 1e-12);
        assertEquals(9.5 / 16, fd.sampling().vote(true)[0], 1e-12);
        assertEquals(9.5 / 16, fd.mode()[0], 1e-12);
        assertEquals(9.5 / 16, fd.median()[0], 1.0 / 32);
    }

    /**
     * The distribution of the voted value against brute force: every one of the V^{rT} full sequences scored by the
     * full forward, voted naively, summed per inner bin; density, cdf, quantiles, mean and mode of the table agree,
     * the enumeration is exact (bound 0) and the whole contract holds (the r = 2, B = 4, K = 2 and r = 3).
     */
    @Test
    void repetitionDistributionIsTheLawOfTheVote() {
        for (int r : new int[] {2, 3}) {
            RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(4, 2), r);
            DecoderHead h = head(tok, 60 + r);
            INDArray phi = GradientCheck.random(70 + r, 2.0, 2, D);
            int count = 1 << (4 * r);
            double[][] leaf = leafProbabilities(h, tok, phi, count);
            DecoderDistribution d = h.distribution(phi);
            assertArrayEquals(new double[] {0, 0}, d.voteApproximationBound());
            double[] y = {0.1, 0.77};
            double[] ld = d.logDensity(y);
            double[] cdf = d.cumulativeProbability(y);
            double[] mean = d.mean();
            double[] mode = d.mode();
            double[] q37 = d.inverseCumulativeProbability(0.37);
            for (int row = 0; row < 2; row++) {
                double[] bin = new double[16];
                for (int i = 0; i < count; i++) {
                    int[] seq = new int[2 * r];
                    for (int k = 2 * r - 1, x = i; k >= 0; k--, x /= 4) {
                        seq[k] = x % 4;
                    }
                    int[] v = naiveVote(seq, r, 2, 4);
                    bin[v[0] * 4 + v[1]] += leaf[row][i];
                }
                int at = (int) Math.floor(y[row] * 16);
                assertEquals(Math.log(bin[at] * 16), ld[row], 1e-9, "r " + r + " log density");
                double c = 0;
                double m = 0;
                int best = 0;
                for (int i = 0; i < 16; i++) {
                    c += i < at ? bin[i] : 0;
                    m += bin[i] * (i + 0.5) / 16;
                    best = bin[i] > bin[best] ? i : best;
                }
                assertEquals(c + bin[at] * (y[row] * 16 - at), cdf[row], 1e-9, "r " + r + " cdf");
                assertEquals(m, mean[row], 1e-9, "r " + r + " mean");
                assertEquals((best + 0.5) / 16, mode[row], 1e-12, "r " + r + " mode");
                double acc = 0;
                int j = 0;
                while (acc + bin[j] < 0.37) {
                    acc += bin[j++];
                }
                assertEquals((j + (0.37 - acc) / bin[j]) / 16, q37[row], 1e-9, "r " + r + " quantile");
            }
            DistributionContract.verify(d, 20_000, 8 + r);
        }
    }

    /** A budget below the tree's width drops mass: the bound reports it and the table stays a distribution. */
    @Test
    void repetitionVoteBudgetReportsTheDroppedMass() {
        RepeatedTokenizer tok = new RepeatedTokenizer(NormalizedTokenizer.of(4, 2), 3);
        DecoderHead h = head(tok, 63);
        INDArray phi = GradientCheck.random(73, 2.0, 2, D);
        DecoderDistribution exact = h.distribution(phi);
        DecoderDistribution cut = h.distribution(phi, new DecoderDistribution.Options(8, 0, 20));
        double[] bound = cut.voteApproximationBound();
        for (int row = 0; row < 2; row++) {
            assertTrue(bound[row] > 0 && bound[row] < 1, "bound " + bound[row]);
            for (double y : new double[] {0.05, 0.3, 0.5, 0.8, 0.97}) {
                double[] yy = {y, y};
                assertTrue(Math.abs(exact.cumulativeProbability(yy)[row] - cut.cumulativeProbability(yy)[row])
                        <= bound[row] + 1e-12, "sup |F - Fhat| <= bound at " + y);
            }
        }
        DistributionContract.verify(cut, 20_000, 12);
    }

    /**
     * The head's point estimates: GREEDY against brute force (first digit = argmax of the marginal P(t1) = sum over
     * t2 of P(t1 t2), second = argmax of P(t1* t2)), and MEAN / MEDIAN / MODE as the distribution's.
     */
    @Test
    void pointEstimatesFollowTheirDefinitions() {
        NormalizedTokenizer tok = NormalizedTokenizer.of(4, 2);
        DecoderHead h = head(tok, 61);
        INDArray phi = GradientCheck.random(62, 2.0, 3, D);
        double[][] p = leafProbabilities(h, tok, phi, 16);
        double[] greedy = h.point(phi, io.regheads.core.head.PointEstimate.GREEDY);
        for (int r = 0; r < 3; r++) {
            int t1 = 0;
            double best = -1;
            for (int a = 0; a < 4; a++) {
                double m = 0;
                for (int b = 0; b < 4; b++) {
                    m += p[r][4 * a + b];
                }
                if (m > best) {
                    best = m;
                    t1 = a;
                }
            }
            int t2 = 0;
            for (int b = 1; b < 4; b++) {
                if (p[r][4 * t1 + b] > p[r][4 * t1 + t2]) {
                    t2 = b;
                }
            }
            assertEquals((4 * t1 + t2 + 0.5) / 16, greedy[r], 1e-15, "row " + r); // the bin centre
        }
        DecoderDistribution d = h.distribution(phi);
        assertArrayEquals(d.sampling().greedy(), greedy, 0.0);
        assertArrayEquals(d.mean(), h.point(phi, io.regheads.core.head.PointEstimate.MEAN), 0.0);
        assertArrayEquals(d.median(), h.point(phi, io.regheads.core.head.PointEstimate.MEDIAN), 0.0);
        assertArrayEquals(d.mode(), h.point(phi, io.regheads.core.head.PointEstimate.MODE), 0.0);
    }

    /**
     * Base 10, one exponent digit, three mantissa digits: tens of thousands of valid sequences, whose enumeration took
     * 86 s for one row of a trained model. mean() expands the tree under its certified budget; the whole-tree
     * expansion (tolerance 0, every prefix) is the exact reference, and the bounded mean lies within its bound of it.
     */
    @Test
    void unnormalizedMeanIsWithinItsCertifiedBoundOfTheWholeTree() {
        DecoderHead h = head(UnnormalizedTokenizer.of(10, 1, 3), 23);
        DecoderDistribution d = h.distribution(GradientCheck.random(2, 1.0, 2, D));
        DecoderDistribution.MeanEstimate whole = d.exactMean(0);
        DecoderDistribution.MeanEstimate bounded = d.exactMean(1e-3);
        double[] mean = d.mean();
        for (int r = 0; r < 2; r++) {
            assertEquals(0, whole.errorBound()[r], 0.0, "the whole tree is exact");
            assertTrue(Math.abs(bounded.mean()[r] - whole.mean()[r]) <= bounded.errorBound()[r] * (1 + 1e-9) + 1e-12,
                    bounded.mean()[r] + " +- " + bounded.errorBound()[r] + " vs " + whole.mean()[r]);
            assertTrue(Math.abs(mean[r] - whole.mean()[r]) <= 1e-6 * Math.max(1, Math.abs(whole.mean()[r])),
                    "mean() " + mean[r] + " vs " + whole.mean()[r]);
        }
    }
}
