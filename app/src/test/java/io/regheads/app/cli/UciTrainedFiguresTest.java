package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.token.Interval;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.UnnormalizedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The figures of {@code uci} ({@link UciFit#measure}) on trained models.
 *
 * <p>Uninformative data (the paper's TamiElectric case): y uniform on [0, 1] and independent of x, so the best
 * prediction is the uniform distribution, whose figures have closed forms: ln B per token for a normalized decoder
 * with base B, ln n for a histogram with n bins, 1/2 ln(2 pi e / 12) = 0.1764852083 for a Gaussian with the
 * uniform's variance 1/12 (the pointwise head), and H / T for an unnormalized decoder, H the entropy of the token
 * sequence of a uniform y, from the tokenizer's own cells (its masked, own softmax; the unmasked figure of a head
 * trained with a mask is printed, not asserted: it is about 1.4 here). Each within 0.02 nats.
 *
 * <p>The MDN's closed form is 0 (the density of U[0, 1]) only in the limit of infinitely many components: a mixture
 * fitted by EM to the same 800 rows (numpy, 2000 iterations) scores 0.030 / 0.032 / 0.037 on 20 000 fresh rows with
 * 5 / 10 / 20 components, and our MDN trained by Adam 0.10 to 0.14. So its test brackets it between the uniform's 0 and
 * the single Gaussian's 0.1765 (a mixture no better than one Gaussian would fail).
 *
 * <p>Conversions between the paper-compatible figure x and the density NLL of y01 on a model trained on informative
 * data: K x - K ln B (normalized decoder), x - ln n (histogram), x (MDN, no test row clipped).
 */
class UciTrainedFiguresTest {
    private static final TrainerConfig QUICK = TrainerConfig.defaults().withLearningRate(3e-3).withMaxEpochs(30)
            .withPatience(5);

    /** rows x 3 features uniform on [-1, 1]; y = f(x) or, for {@code informative = false}, uniform on [0, 1]. */
    private static Dataset data(int rows, long seed, boolean informative) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        double[][] x = new double[rows][3];
        double[] y = new double[rows];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < 3; j++) {
                x[i][j] = 2 * rng.nextDouble() - 1;
            }
            y[i] = informative ? 0.5 + 0.3 * x[i][0] - 0.1 * x[i][1] * x[i][2] + 0.05 * rng.nextDouble()
                    : rng.nextDouble();
        }
        return Dataset.of(x, y);
    }

    private static UciFit.Measured fitAndMeasure(HeadSpec spec, Dataset train, Dataset test) {
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 16, spec, null, QUICK), train.features());
        m.fit(train);
        double[] grid01 = UciFigures.distinctSorted(m.yScaler().transform(train.y()));
        return UciFit.measure(m, spec, test, grid01, false);
    }

    @Test
    void uninformativeTargetsGiveTheClosedForms() {
        Dataset train = data(800, 1, false);
        Dataset test = data(2000, 2, false);
        double histogram = fitAndMeasure(new HistogramSpec(16, false), train, test).paper();
        double binary = fitAndMeasure(DecoderSpec.small(2, 4), train, test).paper();
        double quaternary = fitAndMeasure(DecoderSpec.small(4, 3), train, test).paper();
        UnnormalizedDecoderSpec ud = UnnormalizedDecoderSpec.small(4, 4, 2);
        UciFit.Measured unnormalized = fitAndMeasure(ud, train, test);
        double mdn = fitAndMeasure(new MixtureSpec(20), train, test).paper();
        double pointwise = fitAndMeasure(new PointwiseSpec(false), train, test).paper();
        double udClosed = sequenceEntropy(ud.tokenizer()) / 8;
        System.out.printf("uniform y: histogram %.4f (ln 16 %.4f), decoder B=2 %.4f (ln 2 %.4f), B=4 %.4f (ln 4 %.4f),"
                + " unnormalized %.4f masked / %.4f unmasked (H/T %.4f), mdn %.4f (0), pointwise %.4f (0.1765)%n",
                histogram, Math.log(16), binary, Math.log(2), quaternary, Math.log(4), unnormalized.paper(),
                unnormalized.paperUnmasked(), udClosed, mdn, pointwise);
        assertEquals(Math.log(16), histogram, 0.02);
        assertEquals(Math.log(2), binary, 0.02);
        assertEquals(Math.log(4), quaternary, 0.02);
        assertEquals(udClosed, unnormalized.paper(), 0.02);
        assertTrue(mdn > -0.02 && mdn < 0.5 * Math.log(2 * Math.PI * Math.E / 12), "mdn " + mdn);
        assertEquals(0.5 * Math.log(2 * Math.PI * Math.E / 12), pointwise, 0.02);
    }

    /**
     * H = -sum P ln P over the cells of the tokenizer's sequences, P = the share of [0, 1] in the cell (walking the
     * cells upwards from the zero cell). For B = 4, E = 4, M = 2: the exponent sign and the zero spelling carry
     * almost nothing; each binade [4^-k, 4^(1-k)) holds 12 equal cells.
     */
    static double sequenceEntropy(UnnormalizedTokenizer tok) {
        double h = 0;
        double y = 0;
        int cells = 0;
        while (y < 1) {
            Interval iv = tok.interval(tok.encode(y));
            double p = Math.min(iv.hi(), 1) - Math.max(iv.lo(), 0);
            if (p > 0) {
                h -= p * Math.log(p);
            }
            assertTrue(iv.hi() > y, "cells move upwards");
            y = iv.hi();
            cells++;
        }
        assertTrue(cells > 12 * 200, "walked the cells of more than 200 binades, got " + cells);
        return h;
    }

    /** The rows of {@code test} whose y lies within the training targets' range. */
    private static Dataset insideRangeOf(Dataset train, Dataset test) {
        double lo = java.util.Arrays.stream(train.y()).min().orElseThrow();
        double hi = java.util.Arrays.stream(train.y()).max().orElseThrow();
        java.util.List<Integer> keep = new java.util.ArrayList<>();
        for (int i = 0; i < test.rows(); i++) {
            if (test.y()[i] >= lo && test.y()[i] < hi) {
                keep.add(i);
            }
        }
        double[][] x = keep.stream().map(i -> test.x()[i]).toArray(double[][]::new);
        double[] y = keep.stream().mapToDouble(i -> test.y()[i]).toArray();
        assertTrue(y.length > 250, "most test rows lie inside the training range, got " + y.length);
        return Dataset.of(x, y);
    }

    /**
     * The model gives a bounded head (decoder, histogram without tails) half-normal tails of total mass 1e-3 beyond
     * [0, 1]: inside, its density is the head's times 1 - 1e-3, so its NLL of y01 is the head's plus this.
     */
    private static final double TAILS = -Math.log1p(-1e-3);

    @Test
    void conversionsHoldOnTrainedModels() {
        Dataset train = data(600, 3, true);
        Dataset test = insideRangeOf(train, data(300, 4, true)); // no test row clipped: y01 in [0, 1]
        UciFit.Measured dec = fitAndMeasure(DecoderSpec.small(2, 4), train, test);
        assertEquals(4, dec.positions());
        assertEquals(dec.fair(), 4 * dec.paper() - 4 * Math.log(2) + TAILS, 1e-4);
        UciFit.Measured dec8 = fitAndMeasure(DecoderSpec.small(8, 3), train, test);
        assertEquals(dec8.fair(), 3 * dec8.paper() - 3 * Math.log(8) + TAILS, 1e-4);
        UciFit.Measured hist = fitAndMeasure(new HistogramSpec(64, false), train, test);
        assertEquals(1, hist.positions());
        assertEquals(hist.fair(), hist.paper() - Math.log(64) + TAILS, 1e-4);
        UciFit.Measured mdn = fitAndMeasure(new MixtureSpec(5), train, test);
        assertEquals(0, mdn.positions());
        assertEquals(0, mdn.clipped());
        assertEquals(mdn.fair(), mdn.paper(), 1e-9);
        System.out.printf("trained on y = f(x): decoder B=2,K=4 x %.4f, NLL01 %.4f; B=8,K=3 x %.4f, NLL01 %.4f; "
                + "histogram 64 x %.4f, NLL01 %.4f; mdn x %.4f, NLL01 %.4f (%d clipped)%n", dec.paper(), dec.fair(),
                dec8.paper(), dec8.fair(), hist.paper(), hist.fair(), mdn.paper(), mdn.fair(), mdn.clipped());
    }
}
