package io.regheads.heads.model;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.metrics.Evaluation;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.TrainingResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses a head honestly: on rows that no candidate trains on.
 *
 * <p>{@link #select} holds out {@value #SELECTION_PERCENT}% of the training rows (at least 1; a seeded
 * permutation, seed {@code config.trainer().seed()}), fits every candidate head on the rest with the same encoder
 * and trainer settings (each with its own early-stopping share of those rows), scores each on the held-out rows by
 * the chosen rule (mean NLL or mean CRPS of its predictive distribution, in y's units), and picks the lowest. With
 * {@code refit}, the winner is then trained again on all the rows (the model returned); without, the model fitted
 * on the rest is kept. A candidate whose training fails (diverges or leaves an unusable model) or gives a
 * non-finite score is skipped and reported; if every candidate fails, {@link #select} throws.
 *
 * <p>Example: {@code HeadSelection.select(ModelConfig.defaults(new PointwiseSpec(false)), List.of(new
 * PointwiseSpec(false), new HistogramSpec(64, true), new MixtureSpec(5)), train, ScoringRule.NLL, true,
 * ProgressListener.none()).summary()} gives a small table of the three heads' held-out scores and the winner.
 *
 * <p>Stateless; {@code select} is not thread-safe for the models it trains (each is its own).
 */
public final class HeadSelection {
    private static final Logger LOG = LoggerFactory.getLogger(HeadSelection.class);
    /** Share of the training rows held out for the selection, in percent. */
    public static final int SELECTION_PERCENT = 20;

    private HeadSelection() {}

    /**
     * One candidate's outcome.
     *
     * @param head     the candidate head as configured
     * @param score    its held-out score by the rule (NaN if it failed)
     * @param held     its held-out evaluation (null if it failed)
     * @param training its training run on the rest of the rows
     * @param failure  why it was skipped, or empty
     */
    public record Candidate(HeadSpec head, double score, Evaluation held, TrainingResult training,
            Optional<String> failure) {}

    /**
     * The outcome of a selection.
     *
     * @param model         the chosen head's model (refitted on all rows, or as fitted on the rest)
     * @param chosen        the chosen head as configured
     * @param rule          the score it was chosen by
     * @param candidates    every candidate, in the order given
     * @param selectionRows rows held out for the scores
     * @param refitted      whether {@code model} was trained again on all rows
     */
    public record Result(RegressionModel model, HeadSpec chosen, ScoringRule rule, List<Candidate> candidates,
            int selectionRows, boolean refitted) {
        /** Copies the list. */
        public Result {
            candidates = List.copyOf(candidates);
        }

        /** A few lines: each candidate's held-out NLL, CRPS and 90% coverage, the winner marked {@code *}. */
        public String summary() {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "head chosen by held-out %s on %d rows "
                    + "(%d%% of the training rows, which no candidate trained on):%n", rule, selectionRows,
                    SELECTION_PERCENT));
            for (Candidate c : candidates) {
                String mark = c.head().equals(chosen) ? "*" : " ";
                if (c.failure().isPresent()) {
                    sb.append(String.format(Locale.ROOT, "  %s %-48s skipped: %s%n", mark, c.head(), c.failure().get()));
                } else {
                    sb.append(String.format(Locale.ROOT, "  %s %-48s NLL %.4g  CRPS %.4g  cov90 %.3f%n", mark,
                            c.head(), c.held().nll(), c.held().crps(), c.held().coverageAt(0.9)));
                }
            }
            return sb.append(refitted ? "  (* refitted on all rows)" : "  (* kept as fitted on the rest)").toString();
        }
    }

    /**
     * Fits each candidate and keeps the best by {@code rule} on held-out rows (see the class description).
     *
     * @param base       encoder, loss (null: each head's default), trainer and target settings; its head is ignored
     * @param candidates at least one head
     * @param train      the training rows, at least 10
     * @param rule       NLL or CRPS
     * @param refit      train the winner again on all rows
     * @param progress   receives the candidates' training progress and warnings
     * @throws IllegalArgumentException   on a null argument, no candidate, fewer than 10 rows or non-finite targets
     * @throws IllegalStateException      if every candidate failed (the message lists why)
     */
    public static Result select(ModelConfig base, List<HeadSpec> candidates, Dataset train, ScoringRule rule,
            boolean refit, ProgressListener progress) {
        Checks.notNull("base", base);
        Checks.require(candidates != null && !candidates.isEmpty(), "candidates must name at least one head");
        Checks.notNull("train", train);
        Checks.notNull("rule", rule);
        Checks.notNull("progress", progress);
        Checks.require(train.rows() >= 10, "train must have at least 10 rows to hold some out, got %d", train.rows());
        int n = train.rows();
        int held = Math.max(1, Math.round(n * SELECTION_PERCENT / 100f));
        int[] order = PermutationSampler.natural(n);
        PermutationSampler.shuffle(RandomSource.XO_RO_SHI_RO_128_PP.create(base.trainer().seed() ^ 0x4A5E1EC7L), order);
        for (int i = 0; i < n; i++) {
            Checks.require(Double.isFinite(train.y(i)), "train targets must be finite to select a head by its scores, "
                    + "got %s at row %d", train.y(i), i);
        }
        Dataset selection = train.subset(order, 0, held);
        Dataset rest = train.subset(order, held, n - held);
        List<Candidate> out = new ArrayList<>();
        RegressionModel best = null;
        Candidate bestCandidate = null;
        for (HeadSpec h : candidates) {
            Checks.notNull("candidate", h);
            ModelConfig c = base.withHead(h);
            RegressionModel m = RegressionModel.create(c, train.features());
            TrainingResult r = m.fit(rest, progress);
            Candidate cand;
            if (r.failed()) {
                cand = new Candidate(h, Double.NaN, null, r, Optional.of(r.message()));
            } else {
                Evaluation e = m.evaluate(selection, 0.9); // refuses NaN or infinite targets, before any fit
                double score = rule.of(e);
                cand = Double.isFinite(score) ? new Candidate(h, score, e, r, Optional.empty())
                        : new Candidate(h, score, e, r, Optional.of("held-out " + rule + " is " + score));
            }
            out.add(cand);
            if (cand.failure().isEmpty() && (bestCandidate == null || cand.score() < bestCandidate.score())) {
                best = m;
                bestCandidate = cand;
            }
        }
        if (bestCandidate == null) {
            StringBuilder why = new StringBuilder("every candidate head failed:");
            for (Candidate c : out) {
                why.append(' ').append(c.head().name()).append(": ").append(c.failure().orElse("?")).append(';');
            }
            throw new IllegalStateException(why.toString());
        }
        if (refit) {
            RegressionModel all = RegressionModel.create(base.withHead(bestCandidate.head()), train.features());
            TrainingResult r = all.fit(train, progress);
            if (r.failed()) { // the same settings trained on fewer rows: keep that model rather than none
                LOG.warn("refitting head {} on all rows failed ({}); keeping it as fitted on {} of them",
                        bestCandidate.head().name(), r.message(), rest.rows());
                return new Result(best, bestCandidate.head(), rule, out, held, false);
            }
            best = all;
        }
        return new Result(best, bestCandidate.head(), rule, out, held, refit);
    }
}
