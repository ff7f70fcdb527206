package io.regheads.heads.decoder;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.HarrellDavis;
import io.regheads.core.token.Interval;
import io.regheads.core.token.NumberTokenizer;
import io.regheads.core.token.Voting;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Token-by-token decoding of the rows of a {@link DecoderDistribution} ({@link DecoderDistribution#sampling()}), the
 * way a language model generates: ancestral sampling under temperature, top-k and top-p ({@link #sampleSequences},
 * {@link #sampleValues}), the sample mean and Harrell-Davis median of such draws, beam search for the density mode
 * ({@link #beamSearch}), greedy decoding ({@link #greedy}) and, for repetition codes, majority or soft votes over
 * the greedy tokens ({@link #vote}). These act on token sequences; the exact summaries of the distribution (density,
 * CDF, quantiles, the certified mean) are {@link DecoderDistribution}'s.
 *
 * <p>Sampling runs through the key/value-cached decoder with one step per <em>distinct</em> prefix and position,
 * shared by every sample on that prefix (exact: each sample draws its own token at every node), in blocks of at most
 * {@value #BLOCK_ROWS} sample slots (input rows times samples), which bounds one block's state.
 *
 * <p>Shapes: B rows, T positions, V vocabulary. Immutable (it shares the distribution's snapshot of the parameters)
 * and thread-safe; each call's randomness comes from the generator it is given.
 */
public final class DecoderSampling {

    /**
     * Sampling settings, applied at each position after the tokenizer's validity mask: logits divided by the
     * temperature, then top-k (the k most probable tokens kept), then the nucleus (top-p: the smallest set of the
     * most probable kept tokens whose mass reaches topP of the kept mass, at least one); the kept probabilities are
     * renormalised.
     *
     * @param temperature > 0
     * @param topK        0 for none, else >= 1
     * @param topP        in (0, 1]; 1 for none
     */
    public record Settings(double temperature, int topK, double topP) {
        /**
         * @param temperature divides the logits, positive
         * @param topK        0 for none, else at least 1
         * @param topP        in (0, 1]; 1 for none
         * @throws IllegalArgumentException when a field is out of range
         */
        public Settings {
            Checks.require(temperature > 0 && temperature < Double.POSITIVE_INFINITY,
                    "temperature must be > 0 and finite, got %s", temperature);
            Checks.atLeast("topK", topK, 0);
            Checks.require(topP > 0 && topP <= 1, "topP must be in (0, 1], got %s", topP);
        }

        /** Plain ancestral sampling from the model's distribution. */
        public static Settings plain() {
            return new Settings(1, 0, 1);
        }
    }

    /**
     * Best sequences of a beam search, {@code tokens [B][T]}, their log-probabilities and log-densities.
     *
     * @param tokens         per row the best sequence found
     * @param logProbability its log-probability
     * @param logDensity     its log-density (log-probability minus the log of its cell's width)
     */
    public record Beam(int[][] tokens, double[] logProbability, double[] logDensity) {}

    /**
     * Sample slots (input rows x samples) per block in sampling: bounds a block's state; prefix sharing keeps the
     * live state rows well below it (the block sizes tried are in docs/perf-decoder.md).
     */
    private static final int BLOCK_ROWS = 16384;

    private final DecoderRows rows;
    private final SpecialMass specials;

    DecoderSampling(DecoderRows rows, SpecialMass specials) {
        this.rows = rows;
        this.specials = specials;
    }

    /**
     * {@code n} independent sequences per row, {@code [B * n][T]} (row r's samples at r*n..r*n+n-1): one cached
     * decoder step per distinct prefix and position, shared by all samples on that prefix (exact: each sample
     * draws its own token at every node; see {@code PrefixSampler}).
     *
     * @throws IllegalArgumentException if n &lt; 1 or rng/sampling is null
     */
    public int[][] sampleSequences(UniformRandomProvider rng, int n, Settings sampling) {
        Checks.notNull("rng", rng);
        Checks.notNull("sampling", sampling);
        Checks.atLeast("n", n, 1);
        // blocks of input rows so that one block's state (rows x T x d per layer, ff-wide activations) stays bounded
        return PrefixSampler.sample(rows.start(), n, sampling, rng, Math.max(1, BLOCK_ROWS / n));
    }

    /**
     * Sampled sequences decoded to {@code tokenizer.decode} values: {@code [n][B]} (a sequence spelling a special
     * token decodes to its special value; a repetition code's to its vote).
     *
     * @throws IllegalArgumentException if n &lt; 1 or rng/sampling is null
     */
    public double[][] sampleValues(UniformRandomProvider rng, int n, Settings sampling) {
        int[][] seq = sampleSequences(rng, n, sampling);
        int b = rows.b;
        double[][] out = new double[n][b];
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                out[j][r] = rows.tok.decode(seq[r * n + j]);
            }
        }
        return out;
    }

    /** The mean of n sampled values per row (for comparison with {@link DecoderDistribution#exactMean}). */
    public double[] sampleMean(UniformRandomProvider rng, int n, Settings sampling) {
        double[][] s = sampleValues(rng, n, sampling);
        double[] m = new double[rows.b];
        for (double[] row : s) {
            for (int r = 0; r < rows.b; r++) {
                m[r] += row[r] / n;
            }
        }
        return m;
    }

    /**
     * Harrell-Davis median of n sampled values per row: {@code sum_i W_i x_(i)}, {@code W_i = I_{i/n}(a, a) -
     * I_{(i-1)/n}(a, a)}, {@code a = (n + 1) / 2}.
     */
    public double[] sampleMedian(UniformRandomProvider rng, int n, Settings sampling) {
        double[][] s = sampleValues(rng, n, sampling);
        double[] wts = harrellDavisWeights(n);
        double[] out = new double[rows.b];
        double[] col = new double[n];
        for (int r = 0; r < rows.b; r++) {
            for (int j = 0; j < n; j++) {
                col[j] = s[j][r];
            }
            Arrays.sort(col);
            for (int j = 0; j < n; j++) {
                out[r] += wts[j] * col[j];
            }
        }
        return out;
    }

    static double[] harrellDavisWeights(int n) {
        return HarrellDavis.weights(n);
    }

    /**
     * Exact draws of Y given Y finite, {@code [n][B]}: a leaf by plain ancestral sampling, then a uniform point inside
     * its interval; draws that spell a special value are redrawn (rejection).
     *
     * @throws IllegalArgumentException naming a row whose whole mass is on NaN/Inf tokens
     */
    double[][] finiteSamples(UniformRandomProvider rng, int n) {
        NumberTokenizer tok = rows.tok;
        int b = rows.b;
        int[][] seq = sampleSequences(rng, n, Settings.plain());
        double[][] out = new double[n][b];
        int[] missing = new int[b]; // draws that were special values: Y given Y finite redraws them
        int most = 0;
        for (int r = 0; r < b; r++) {
            for (int j = 0; j < n; j++) {
                int[] q = seq[r * n + j];
                if (Double.isFinite(tok.decode(q))) {
                    Interval iv = tok.interval(q);
                    out[j - missing[r]][r] = iv.lo() + rng.nextDouble() * iv.width();
                } else {
                    missing[r]++;
                }
            }
            most = Math.max(most, missing[r]);
        }
        if (most > 0) {
            specials.finite(); // refuses rows without a finite part
            while (most > 0) { // rejection: redraw until every row has n finite draws
                int[][] more = sampleSequences(rng, most, Settings.plain());
                int next = 0;
                for (int r = 0; r < b; r++) {
                    for (int j = 0; j < most && missing[r] > 0; j++) {
                        int[] q = more[r * most + j];
                        if (Double.isFinite(tok.decode(q))) {
                            Interval iv = tok.interval(q);
                            out[n - missing[r]][r] = iv.lo() + rng.nextDouble() * iv.width();
                            missing[r]--;
                        }
                    }
                    next = Math.max(next, missing[r]);
                }
                most = next;
            }
        }
        return out;
    }

    /**
     * In place: keeps the k most probable tokens (k = 0: all), then the smallest set of most probable tokens whose
     * mass reaches topP (always at least one), zeroes the rest and renormalises.
     */
    static void filter(double[] p, int topK, double topP) {
        if (topK == 0 && topP >= 1) {
            return;
        }
        Integer[] order = new Integer[p.length];
        for (int i = 0; i < p.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -p[i]));
        int keep = topK == 0 ? p.length : Math.min(topK, p.length);
        double total = 0;
        for (int j = 0; j < keep; j++) {
            total += p[order[j]];
        }
        double c = 0;
        int nucleus = 0;
        while (nucleus < keep) {
            c += p[order[nucleus]];
            nucleus++;
            if (c >= topP * total) {
                break;
            }
        }
        double kept = 0;
        for (int j = 0; j < p.length; j++) {
            if (j < nucleus) {
                kept += p[order[j]];
            } else {
                p[order[j]] = 0;
            }
        }
        for (int j = 0; j < p.length; j++) {
            p[j] /= kept;
        }
    }

    /** The token whose cumulative probability first exceeds u (the last token with mass if rounding leaves none). */
    static int draw(double[] p, double u) {
        double c = 0;
        int last = -1;
        for (int k = 0; k < p.length; k++) {
            if (p[k] > 0) {
                c += p[k];
                last = k;
                if (u < c) {
                    return k;
                }
            }
        }
        return last;
    }

    /**
     * Beam search for the <b>density mode</b> with {@code width} beams per row: partial sequences are ranked by an
     * upper bound on the density any completion can reach, {@code log P(prefix) - log minWidth(prefix)} (minWidth:
     * the smallest cell width among the prefix's completions), and the final sequences by their density {@code log
     * P(sequence) - log width}. For tokenizers whose cells all have one width (normalized digits, Hamming) this is the
     * ranking by probability; for sign-exponent-mantissa tokens, whose cells range over many orders of magnitude,
     * ranking by probability alone would prefer a likely wide cell over a denser narrow one. Sequences that decode to
     * a special value (NaN, +-Inf) have no density and are never chosen. A width that covers every prefix is an exact
     * search (tested against brute force).
     *
     * @return per row the densest sequence found, its log-probability and log-density
     * @throws IllegalArgumentException if width &lt; 1
     */
    public Beam beamSearch(int width) {
        Checks.atLeast("width", width, 1);
        int b = rows.b;
        int v = rows.v;
        NumberTokenizer tok = rows.tok;
        DecoderState s = rows.start();
        double[] score = new double[b];
        double[] row = new double[v];
        for (int pos = 0; pos < rows.t; pos++) {
            int n = s.rows();
            List<double[]> cand = new ArrayList<>(); // {row, token, score}
            for (int i = 0; i < n; i++) {
                s.logProbabilities(i, 1.0, row);
                for (int k = 0; k < v; k++) {
                    if (row[k] > Double.NEGATIVE_INFINITY) {
                        cand.add(new double[] {i, k, score[i] + row[k],
                            score[i] + row[k] - logMinWidth(s.prefix(i), pos, k)});
                    }
                }
            }
            List<List<double[]>> bySource = new ArrayList<>();
            for (int r = 0; r < b; r++) {
                bySource.add(new ArrayList<>());
            }
            for (double[] c : cand) {
                bySource.get(s.source((int) c[0])).add(c);
            }
            List<double[]> kept = new ArrayList<>();
            for (List<double[]> l : bySource) {
                l.sort(Comparator.comparingDouble((double[] c) -> -c[3]));
                kept.addAll(l.subList(0, Math.min(width, l.size())));
            }
            int[] par = new int[kept.size()];
            int[] tk = new int[kept.size()];
            score = new double[kept.size()];
            for (int j = 0; j < par.length; j++) {
                par[j] = (int) kept.get(j)[0];
                tk[j] = (int) kept.get(j)[1];
                score[j] = kept.get(j)[2];
            }
            s = s.select(par);
            s.advance(tk);
        }
        int[][] best = new int[b][];
        double[] bestLp = new double[b];
        double[] bestLd = new double[b];
        Arrays.fill(bestLd, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < s.rows(); i++) {
            int r = s.source(i);
            int[] seq = s.prefix(i);
            if (!Double.isFinite(tok.decode(seq))) {
                continue; // a special value: no density
            }
            double ld = score[i] - Math.log(tok.interval(seq).width());
            if (best[r] == null || ld > bestLd[r]) {
                best[r] = seq;
                bestLp[r] = score[i];
                bestLd[r] = ld;
            }
        }
        return new Beam(best, bestLp, bestLd);
    }

    /**
     * {@code log} of a lower bound on the cell widths of the completions of {@code prefix[0..pos-1], k} ({@link
     * NumberTokenizer#narrowestCell}): {@code +Infinity} for a prefix without a number completion (a special token,
     * ranked last), and 0 where the tokenizer knows no positive bound (its prefixes then rank by probability).
     */
    private double logMinWidth(int[] prefix, int pos, int k) {
        int[] c = prefix.clone();
        c[pos] = k;
        double w = rows.tok.narrowestCell(c, pos + 1);
        return w > 0 ? Math.log(w) : 0;
    }

    /** The decoded value of the highest-density sequence found by a beam search of the given width, {@code [B]}. */
    double[] densityMode(int width) {
        Beam beam = beamSearch(width);
        double[] out = new double[rows.b];
        for (int r = 0; r < rows.b; r++) {
            out[r] = rows.tok.decode(beam.tokens()[r]);
        }
        return out;
    }

    /**
     * Greedy decoding: token by token the most probable allowed token (ties to the smaller id), decoded with {@link
     * NumberTokenizer#decode} (which votes for a repetition code; a sequence spelling a special token decodes to its
     * special value). T decoder steps for all rows. A cheap approximation of the most probable sequence (not of the
     * density mode, which {@link #beamSearch} ranks by), and the arithmetic benchmark's point prediction, as in the
     * papers' text models.
     *
     * @return {@code [B]} decoded values
     */
    public double[] greedy() {
        int b = rows.b;
        DecoderState s = rows.start();
        double[] row = new double[rows.v];
        int[] next = new int[b];
        for (int pos = 0; pos < rows.t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row); // masked: disallowed tokens are -infinity
                int best = 0;
                for (int k = 1; k < rows.v; k++) {
                    if (row[k] > row[best]) {
                        best = k;
                    }
                }
                next[r] = best;
            }
            s.advance(next);
        }
        double[] out = new double[b];
        int[] seq = new int[rows.t];
        for (int r = 0; r < b; r++) {
            for (int p = 0; p < rows.t; p++) {
                seq[p] = s.token(r, p);
            }
            out[r] = rows.tok.decode(seq);
        }
        return out;
    }

    /**
     * Error-corrected greedy prediction for a repetition code ({@link Voting#repetitionsOf} {@code > 1}):
     * decode greedily (argmax at each position), then vote per inner position: majority of the greedy tokens
     * ({@code soft = false}, {@link NumberTokenizer#decode}) or the largest summed probability ({@code soft = true},
     * {@link NumberTokenizer#decodeSoft}).
     *
     * @throws IllegalArgumentException if the tokenizer does not repeat its spelling
     */
    public double[] vote(boolean soft) {
        NumberTokenizer tok = rows.tok;
        Checks.require(Voting.repetitionsOf(tok) > 1,
                "vote needs a tokenizer that repeats its spelling (Voting, repetitions() > 1), got %s", tok);
        int b = rows.b;
        int t = rows.t;
        int v = rows.v;
        DecoderState s = rows.start();
        double[][][] probs = new double[b][t][v];
        double[] row = new double[v];
        int[] next = new int[b];
        for (int pos = 0; pos < t; pos++) {
            for (int r = 0; r < b; r++) {
                s.logProbabilities(r, 1.0, row);
                int best = 0;
                for (int k = 0; k < v; k++) {
                    probs[r][pos][k] = Math.exp(row[k]);
                    if (row[k] > row[best]) {
                        best = k;
                    }
                }
                next[r] = best;
            }
            s.advance(next);
        }
        double[] out = new double[b];
        for (int r = 0; r < b; r++) {
            out[r] = soft ? tok.decodeSoft(probs[r]) : tok.decode(s.prefix(r));
        }
        return out;
    }
}
