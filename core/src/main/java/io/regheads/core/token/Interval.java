package io.regheads.core.token;

/**
 * The half-open range {@code [lo, hi)} of y values that one token sequence stands for. Its width turns a
 * sequence probability into a density: {@code density = P(sequence) / width()}.
 */
public record Interval(double lo, double hi) {
    public Interval {
        if (!(lo <= hi)) {
            throw new IllegalArgumentException("Interval needs lo <= hi, got [" + lo + ", " + hi + ")");
        }
    }

    public double width() {
        return hi - lo;
    }

    public boolean contains(double y) {
        return y >= lo && y < hi;
    }
}
