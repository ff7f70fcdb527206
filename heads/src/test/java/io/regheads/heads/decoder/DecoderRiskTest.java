package io.regheads.heads.decoder;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.HeadOutput;
import io.regheads.core.head.TokenLogits;
import io.regheads.core.internal.Host;
import io.regheads.core.loss.Loss;
import io.regheads.core.head.Targets;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.optim.AdamW;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/**
 * The paper's Fig. 2 at small scale: a decoder with binary tokens (K digits, 2^K leaves) fitted to N samples of a
 * truncated N(0.5, 0.25^2) on [0, 1] (constant input) has integrated squared error close to the histogram risk
 * {@code 2^-2K/12 int f'^2 + 2^K/N} (bias + variance) when N is large.
 *
 * <p>Training is on the counts of the distinct leaves (each distinct sequence once, its gradient weighted by its
 * count), which is the same objective as CE over all N samples with constant phi, at 2^K rows per step.
 * Tolerance (stated before the runs): the measured risk, averaged over 3 data sets, within a factor 1.6 of the
 * theory for N in {1024, 16384} and K = 3..5 (the variance term's relative spread over one data set is about
 * sqrt(2 / 2^K)); at K = 6 only below 1.6 x theory (shared parameters smooth across the 64 leaves, which lowers
 * the variance); the best K of 3..6 is 5 or 6 at N = 16384 (theory: 5) and at most 4 at N = 1024 (theory: 4).
 * Measured on 2026-11-22 (risk / theory for K = 3..6): N = 16384: 0.99, 1.01, 0.97, 0.64; N = 1024: 0.82, 0.78,
 * 0.86, 0.73 (at small N the simple variance term 2^K / N ignores the {@code - int f^2 / N} correction and the
 * decoder's smoothing).
 */
class DecoderRiskTest {
    static final double MU = 0.5;
    static final double SIGMA = 0.25;
    static final double Z = 0.9544997361036416; // P(|N(0,1)| < 2), the truncation mass (SciPy norm.cdf(2) - norm.cdf(-2))

    static double f(double x) {
        double u = (x - MU) / SIGMA;
        return Math.exp(-0.5 * u * u) / (SIGMA * Math.sqrt(2 * Math.PI) * Z);
    }

    /** int_0^1 f'(x)^2 dx by the midpoint rule on 100 000 points. */
    static double fPrimeSquared() {
        int n = 100_000;
        double s = 0;
        for (int i = 0; i < n; i++) {
            double x = (i + 0.5) / n;
            double d = -(x - MU) / (SIGMA * SIGMA) * f(x);
            s += d * d / n;
        }
        return s;
    }

    static double[] sample(int n, long seed) {
        Random r = new Random(seed);
        double[] y = new double[n];
        for (int i = 0; i < n; ) {
            double v = MU + SIGMA * r.nextGaussian();
            if (v >= 0 && v < 1) {
                y[i++] = v;
            }
        }
        return y;
    }

    /** Fits the decoder to the counts and returns the integrated squared error of its leaf density. */
    static double fitAndMeasure(int k, double[] y, long seed) {
        int leaves = 1 << k;
        NormalizedTokenizer tok = NormalizedTokenizer.of(2, k);
        double[] count = new double[leaves];
        for (double v : y) {
            count[(int) tok.bin(v)]++;
        }
        int u = 0;
        for (double c : count) {
            u += c > 0 ? 1 : 0;
        }
        double[] centres = new double[u];
        double[] weight = new double[u];
        for (int j = 0, i = 0; j < leaves; j++) {
            if (count[j] > 0) {
                centres[i] = (j + 0.5) / leaves;
                weight[i++] = u * count[j] / y.length;
            }
        }
        DecoderHead head = new DecoderHead(tok, 1, new TransformerBlock.Config(16, 2, 32), 1, seed, DataType.DOUBLE);
        INDArray phi = Nd4j.ones(DataType.DOUBLE, u, 1);
        Targets t = head.targets(centres);
        Loss ce = Losses.ce();
        AdamW opt = new AdamW(head.params(), 1e-2);
        Arena arena = Arena.create();
        for (int step = 0; step < 600; step++) {
            if (step == 400) {
                opt.setLearningRate(2e-3);
            }
            arena.reset();
            head.params().forEach(Param::zeroGrad);
            var fw = head.forward(phi, t, arena);
            HeadOutput g = fw.output().zerosLike(arena);
            ce.accumulate(fw.output(), t, 1.0, g, new double[u]);
            INDArray gl = ((TokenLogits) g).logits();
            double[] gv = Host.doubles(gl);
            int per = k * 2;
            for (int i = 0; i < u; i++) {
                for (int j = 0; j < per; j++) {
                    gv[i * per + j] *= weight[i];
                }
            }
            Host.write(gv, gl);
            head.backward(fw, g, arena);
            opt.step();
        }
        // leaf densities of the fitted model, one row of phi
        DecoderDistribution d = head.distribution(Nd4j.ones(DataType.DOUBLE, 1, 1), new DecoderDistribution.Options(1, 0, 1 << 12)).tabulated();
        double ise = 0;
        int m = 4096 / leaves;
        for (int j = 0; j < leaves; j++) {
            double h = Math.exp(d.logDensity(new double[] {(j + 0.5) / leaves})[0]);
            for (int i = 0; i < m; i++) {
                double x = (j + (i + 0.5) / m) / leaves;
                ise += (h - f(x)) * (h - f(x)) / (m * leaves);
            }
        }
        return ise;
    }

    @Test
    void riskFollowsBiasPlusVarianceAtLargeN() {
        double fp2 = fPrimeSquared();
        StringBuilder report = new StringBuilder();
        for (int n : new int[] {1024, 16384}) {
            double best = Double.POSITIVE_INFINITY;
            int bestK = -1;
            for (int k = 3; k <= 6; k++) {
                double risk = 0;
                for (int rep = 0; rep < 3; rep++) {
                    risk += fitAndMeasure(k, sample(n, 100 + rep), k * 10 + rep) / 3;
                }
                double theory = Math.pow(2, -2 * k) / 12 * fp2 + Math.pow(2, k) / n;
                report.append(String.format("N=%d K=%d risk %.5f theory %.5f ratio %.2f%n", n, k, risk, theory, risk / theory));
                if (k <= 5) {
                    assertTrue(risk / theory > 1 / 1.6 && risk / theory < 1.6, report.toString());
                } else {
                    // 64 leaves share the decoder's parameters: it smooths across leaves, which can only lower the
                    // variance term below the free histogram's; the theory is an upper guide here
                    assertTrue(risk / theory < 1.6, report.toString());
                }
                if (risk < best) {
                    best = risk;
                    bestK = k;
                }
            }
            if (n == 16384) {
                assertTrue(bestK == 5 || bestK == 6, "best K " + bestK + "\n" + report);
            } else {
                assertTrue(bestK <= 4, "best K at N = 1024 " + bestK + "\n" + report); // theory: K = 4 (0.0185) ~ K = 3
            }
        }
        System.out.print(report);
    }
}
