package io.regheads.core.token;

/**
 * The half-open range {@code [lo, hi)} of y values that one token sequence stands for. Its width turns a
 * sequence probability into a density: {@code density = P(sequence) / width()}.
 */
public record Interval(double lo, double hi) {
    /**
     * @param lo lower end, included
     * @param hi upper end, excluded
     * @throws IllegalArgumentException unless {@code lo <= hi}
     */
    public Interval {
        if (!(lo <= hi)) {
            throw new IllegalArgumentException("Interval needs lo <= hi, got [" + lo + ", " + hi + ")");
        }
    }

    /** {@return {@code hi - lo}} */
    public double width() {
        return hi - lo;
    }

    /**
     * Whether {@code lo <= y < hi}.
     *
     * @param y a value
     * @return true when y lies in the interval
     */
    public boolean contains(double y) {
        return y >= lo && y < hi;
    }
}
