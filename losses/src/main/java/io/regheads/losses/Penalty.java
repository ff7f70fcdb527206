package io.regheads.losses;

import io.regheads.core.check.Checks;

/**
 * A penalty {@code f(r)} on a residual {@code r = yHat - y} with its slope {@code f'(r)}: squared {@code r^2},
 * absolute {@code |r|} (slope {@code sign(r)}, 0 at 0 as in PyTorch's l1), Huber {@code r^2/2} for {@code |r| <
 * delta}, else {@code delta (|r| - delta/2)} (PyTorch {@code huber_loss}). Immutable.
 *
 * @param kind  which penalty
 * @param delta Huber threshold, {@code > 0} (ignored, and 1, for the others)
 */
record Penalty(Kind kind, double delta) {

    enum Kind { SQUARED, ABSOLUTE, HUBER }

    Penalty {
        Checks.notNull("kind", kind);
        Checks.positive("delta", delta);
    }

    static Penalty squared() {
        return new Penalty(Kind.SQUARED, 1.0);
    }

    static Penalty absolute() {
        return new Penalty(Kind.ABSOLUTE, 1.0);
    }

    static Penalty huber(double delta) {
        return new Penalty(Kind.HUBER, delta);
    }

    double value(double r) {
        return switch (kind) {
            case SQUARED -> r * r;
            case ABSOLUTE -> Math.abs(r);
            case HUBER -> Math.abs(r) < delta ? 0.5 * r * r : delta * (Math.abs(r) - 0.5 * delta);
        };
    }

    double slope(double r) {
        return switch (kind) {
            case SQUARED -> 2 * r;
            case ABSOLUTE -> Math.signum(r);
            case HUBER -> Math.abs(r) < delta ? r : delta * Math.signum(r);
        };
    }

    String label() {
        return switch (kind) {
            case SQUARED -> "mse";
            case ABSOLUTE -> "mae";
            case HUBER -> "huber(delta=" + delta + ")";
        };
    }
}
