package io.regheads.heads.model;

import io.regheads.core.metrics.Evaluation;

/** A proper scoring rule a model is chosen or calibrated by: lower is better. */
public enum ScoringRule {
    /** Mean negative log density of the targets. */
    NLL,
    /** Mean continuous ranked probability score of the targets. */
    CRPS;

    /** This rule's score in an evaluation. */
    public double of(Evaluation e) {
        return this == NLL ? e.nll() : e.crps();
    }
}
