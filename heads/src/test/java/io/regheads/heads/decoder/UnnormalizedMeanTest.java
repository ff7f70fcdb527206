package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.Decoding;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.head.RegressionHead;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.optim.AdamW;
import io.regheads.core.testing.DistributionContract;
import io.regheads.core.testing.GradientCheck;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.UnnormalizedConfig;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The unnormalized decoder's certified mean (tree expansion with prefix value ranges), its special values
 * (P(NaN), P(+-Inf), the finite part renormalised) and its density mode (beam ranked by density), each against
 * brute-force enumeration ({@link PrefixRangeWalkTest#leaves}: every valid sequence scored by the full forward).
 */
class UnnormalizedMeanTest {
    private static final int D = DecoderDistributionTest.D;

    private static final List<UnnormalizedConfig> SMALL = List.of(UnnormalizedConfig.tiny(),
            new UnnormalizedConfig(2, 2, 2, false), new UnnormalizedConfig(4, 1, 2, false),
            UnnormalizedConfig.tiny().withSpecialTokens(true),
            new UnnormalizedConfig(4, 1, 2, true).withRange(-1, 1, false));

    /** Brute-force E[Y | finite] per row: leaf mass times cell centre over the finite mass. */
    private static double[] bruteMean(List<PrefixRangeWalkTest.Leaf> ls, int rows) {
        double[] m = new double[rows];
        for (int r = 0; r < rows; r++) {
            double total = 0;
            for (PrefixRangeWalkTest.Leaf l : ls) {
                m[r] += l.prob()[r] * 0.5 * (l.cell().lo() + l.cell().hi());
                total += l.prob()[r];
            }
            m[r] /= total;
        }
        return m;
    }

    @Test
    void certifiedMeanEqualsEnumerationWithinItsBound() {
        long seed = 80;
        for (UnnormalizedConfig c : SMALL) {
            UnnormalizedTokenizer tok = new UnnormalizedTokenizer(c);
            DecoderHead h = DecoderDistributionTest.head(tok, seed);
            INDArray phi = GradientCheck.random(seed + 1, 2.0, 3, D);
            List<PrefixRangeWalkTest.Leaf> ls = PrefixRangeWalkTest.leaves(h, tok, phi, new ArrayList<>());
            double[] brute = bruteMean(ls, 3);
            DecoderDistribution d = h.distribution(phi);
            DecoderDistribution.MeanEstimate exact = d.exactMean(0);
            assertArrayEquals(brute, exact.mean(), 1e-9, c + ": tolerance 0 expands the whole tree");
            assertArrayEquals(new double[3], exact.errorBound(), 0.0);
            double spread = ls.get(ls.size() - 1).cell().hi() - ls.get(0).cell().lo();
            for (double rel : new double[] {1e-4, 1e-2, 0.1}) {
                double tol = rel * spread;
                DecoderDistribution.MeanEstimate m = d.exactMean(tol);
                for (int r = 0; r < 3; r++) {
                    assertTrue(Math.abs(m.mean()[r] - brute[r]) <= m.errorBound()[r] * (1 + 1e-9) + 1e-12,
                            c + " tol " + tol + ": " + m.mean()[r] + " +- " + m.errorBound()[r] + " vs " + brute[r]);
                    assertTrue(m.errorBound()[r] <= tol * (1 + 1e-9), c + ": bound " + m.errorBound()[r] + " > " + tol);
                }
            }
            seed += 10;
        }
    }

    /** The case: E = 2, M = 8 (exponents -99..99, 10^8 mantissas): no throw, a finite reported bound. */
    @Test
    void largeTokenizerMeanIsBoundedNotRefused() {
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 2, 8);
        DecoderHead h = DecoderDistributionTest.head(tok, 91);
        INDArray phi = GradientCheck.random(92, 2.0, 2, D);
        DecoderDistribution d = h.distribution(phi, new DecoderDistribution.Options(8, 1e-9, 64));
        DecoderDistribution.MeanEstimate m = d.exactMean(1e-9);
        for (int r = 0; r < 2; r++) {
            assertTrue(Double.isFinite(m.mean()[r]) && Double.isFinite(m.errorBound()[r]) && m.errorBound()[r] > 0,
                    m.mean()[r] + " +- " + m.errorBound()[r]);
            // the bound is honest: the true mean lies in the support, and so must every value the bound allows
            assertTrue(Math.abs(m.mean()[r]) <= d.supportUpperBound()[r]);
        }
    }

    /** With special tokens (and a restricted range) the finite part meets the contract (on the tabulated form). */
    @Test
    void finitePartOfADecoderWithSpecialTokensMeetsTheContract() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(new UnnormalizedConfig(2, 1, 2, true));
        DecoderHead h = DecoderDistributionTest.head(tok, 95);
        DecoderDistribution d = h.distribution(GradientCheck.random(96, 2.0, 2, D),
                new DecoderDistribution.Options(64, 0, 1000));
        double[] finite = d.probabilityFinite();
        assertTrue(finite[0] < 0.99 && finite[0] > 0.01, "specials carry mass: " + finite[0]);
        DecoderDistributionTest.tableAgreesWithTreeAlgorithms(d);
        DistributionContract.verify(d.tabulated(), 20_000, 7);
        // direct (teacher-forced) density against the table, and the mixed log-likelihood of each outcome
        double[] y = {0.5, Double.NaN};
        double[] ll = d.logLikelihood(y);
        assertEquals(Math.log(finite[0]) + d.logDensity(new double[] {0.5, 0.5})[0], ll[0], 1e-12);
        assertEquals(Math.log(d.probabilityNaN()[1]), ll[1], 1e-12);
        UnnormalizedTokenizer ranged = new UnnormalizedTokenizer(new UnnormalizedConfig(4, 1, 2, true).withRange(-1, 1, false));
        DecoderDistribution dr = DecoderDistributionTest.head(ranged, 97).distribution(GradientCheck.random(98, 2.0, 2, D),
                new DecoderDistribution.Options(64, 0, 1000));
        DecoderDistributionTest.tableAgreesWithTreeAlgorithms(dr);
        DistributionContract.verify(dr.tabulated(), 20_000, 8);
    }

    /**
     * Special tokens end to end at the head level: labels with NaN and +-Inf train by cross-entropy, and the
     * reported probabilities approach the label shares (1/8 NaN, 1/8 +Inf, 1/4 -Inf, half finite).
     */
    @Test
    void specialTokensTrainFromNonFiniteLabels() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(new UnnormalizedConfig(4, 1, 2, true));
        DecoderHead h = DecoderDistributionTest.head(tok, 99);
        double[] y = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.5,
            1.5, 2.5, 1.5};
        INDArray phi = Nd4j.ones(DataType.DOUBLE, y.length, D);
        Targets t = h.targets(y);
        AdamW opt = new AdamW(h.params(), 1e-2);
        for (int step = 0; step < 150; step++) {
            h.params().forEach(Param::zeroGrad);
            RegressionHead.Forward fw = h.forward(phi, t, Arena.none());
            HeadOutput g = fw.output().zerosLike();
            Losses.ce().plus(0.3, Losses.ntlWas()).accumulate(fw.output(), t, 1.0, g, new double[y.length]);
            h.backward(fw, g, Arena.none());
            opt.step();
        }
        DecoderDistribution d = h.distribution(Nd4j.ones(DataType.DOUBLE, 1, D));
        assertEquals(0.125, d.probabilityNaN()[0], 0.03);
        assertEquals(0.125, d.probabilityPositiveInfinity()[0], 0.03);
        assertEquals(0.25, d.probabilityNegativeInfinity()[0], 0.03);
        assertEquals(0.5, d.probabilityFinite()[0], 0.03);
        // the finite part: 1.5 three times, 2.5 once
        assertEquals(1.75, d.mean()[0], 0.1);
        assertEquals(1.5, d.mode()[0], 0.0);
        double[][] s = d.sample(org.apache.commons.rng.simple.RandomSource.SPLIT_MIX_64.create(1), 200);
        for (double[] row : s) {
            assertTrue(Double.isFinite(row[0]), "samples of the finite part");
        }
        UnnormalizedTokenizer plain = UnnormalizedTokenizer.of(4, 1, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DecoderDistributionTest.head(plain, 1).targets(new double[] {1, Double.NaN}));
        assertTrue(e.getMessage().contains("NaN"), e.getMessage());
    }

    /**
     * The beam ranks by density: with a width that covers every prefix it finds the brute-force density mode
     * ({@code argmax P(s) / width(s)}), which for unnormalized cells of very different widths need not be the most
     * probable sequence.
     */
    @Test
    void beamFindsTheDensityModeOfUnnormalizedTokens() {
        int differs = 0;
        long seed = 120;
        for (UnnormalizedConfig c : SMALL) {
            UnnormalizedTokenizer tok = new UnnormalizedTokenizer(c);
            DecoderHead h = DecoderDistributionTest.head(tok, seed);
            INDArray phi = GradientCheck.random(seed + 1, 3.0, 3, D);
            List<PrefixRangeWalkTest.Leaf> ls = PrefixRangeWalkTest.leaves(h, tok, phi, new ArrayList<>());
            DecoderDistribution d = h.distribution(phi, new DecoderDistribution.Options(4096, 0, 100_000));
            double[] mode = d.mode();
            DecoderSampling.Beam beam = d.sampling().beamSearch(4096);
            for (int r = 0; r < 3; r++) {
                PrefixRangeWalkTest.Leaf dense = ls.get(0);
                PrefixRangeWalkTest.Leaf likely = ls.get(0);
                for (PrefixRangeWalkTest.Leaf l : ls) {
                    dense = l.prob()[r] / l.cell().width() > dense.prob()[r] / dense.cell().width() ? l : dense;
                    likely = l.prob()[r] > likely.prob()[r] ? l : likely;
                }
                assertEquals(tok.decode(dense.tokens()), mode[r], 0.0, c + " row " + r);
                assertEquals(Math.log(dense.prob()[r] / dense.cell().width()), beam.logDensity()[r], 1e-9);
                differs += dense == likely ? 0 : 1;
            }
            seed += 10;
        }
        assertTrue(differs > 0, "some row's density mode is not its most probable sequence");
    }

    /**
     * Point estimates at the distribution level: each estimate is the summary it names (the filters act on the
     * sample-based ones only); AUTO is the certified mean, and the median where the expansion's cap leaves the mean
     * uncertified.
     */
    @Test
    void pointEstimatesFollowTheDecodingSettings() {
        UnnormalizedTokenizer tok = new UnnormalizedTokenizer(UnnormalizedConfig.tiny());
        DecoderHead h = DecoderDistributionTest.head(tok, 130);
        INDArray phi = GradientCheck.random(131, 2.0, 3, D);
        DecoderDistribution d = h.distribution(phi, new DecoderDistribution.Options(64, 1e-9, 100_000));
        DecoderSampling.Settings cool = new DecoderSampling.Settings(0.5, 3, 0.9);
        Decoding filtered = Decoding.of(PointEstimate.MEAN).withSampling(0.5, 3, 0.9).withSamples(50, 4);
        assertArrayEquals(d.mean(), d.point(filtered), 0.0);
        assertArrayEquals(d.median(), d.point(filtered.withPoint(PointEstimate.MEDIAN)), 0.0);
        assertArrayEquals(d.mode(), d.point(filtered.withPoint(PointEstimate.MODE)), 0.0);
        assertArrayEquals(d.sampling().greedy(), d.point(filtered.withPoint(PointEstimate.GREEDY)), 0.0);
        assertArrayEquals(d.mean(), d.point(Decoding.of(PointEstimate.AUTO)), 0.0); // certified: the mean
        assertArrayEquals(d.sampling().sampleMean(org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(4), 50, cool),
                d.point(filtered.withPoint(PointEstimate.SAMPLE_MEAN)), 0.0);
        assertArrayEquals(d.sampling().sampleMedian(org.apache.commons.rng.simple.RandomSource.XO_RO_SHI_RO_128_PP.create(4), 50, cool),
                d.point(filtered.withPoint(PointEstimate.SAMPLE_MEDIAN)), 0.0);
        // the head decodes as its distribution does
        assertArrayEquals(d.point(filtered.withPoint(PointEstimate.SAMPLE_MEAN)),
                h.point(phi, filtered.withPoint(PointEstimate.SAMPLE_MEAN)), 0.0);
        // a cap of 2 prefixes per row and level leaves the mean uncertified: AUTO falls back to the median
        DecoderDistribution capped = h.distribution(phi, new DecoderDistribution.Options(64, 1e-9, 2));
        assertArrayEquals(capped.median(), capped.point(Decoding.of(PointEstimate.AUTO)), 0.0);
    }
}
