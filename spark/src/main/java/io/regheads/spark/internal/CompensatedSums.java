package io.regheads.spark.internal;

import java.io.Serializable;

/**
 * Element-wise sums that Spark may combine in any order with (practically) the same result: each element is a
 * pair {@code hi + lo} updated with Knuth's TwoSum, so the rounding error of every merge is kept in {@code lo}
 * instead of being lost. Merging the same partial sums in another order changes {@code hi + lo} by about 2^-100
 * relative, far below the last bit of the double (or float) that {@link #value} rounds to. A driver that adds
 * partition results in arrival order ({@code treeAggregate}, {@code fold}) thus still gets reproducible values.
 *
 * <p>A single partial sum goes in exactly: {@code of(v).value(i) == v[i]} bit for bit, so one partition gives what
 * one machine gives.
 *
 * <p>Mutable (merge works in place), not thread-safe; serializable for shipping between tasks and driver.
 */
public final class CompensatedSums implements Serializable {
    private static final long serialVersionUID = 1L;

    private final double[] hi;
    private final double[] lo;

    private CompensatedSums(double[] hi, double[] lo) {
        this.hi = hi;
        this.lo = lo;
    }

    /** The sums {@code values} (taken, not copied) with no rounding error yet. */
    public static CompensatedSums of(double[] values) {
        return new CompensatedSums(values, new double[values.length]);
    }

    /** Number of elements. */
    public int length() {
        return hi.length;
    }

    /** Adds {@code other} element-wise into this (lengths must match); returns this. */
    public CompensatedSums merge(CompensatedSums other) {
        if (other.hi.length != hi.length) {
            throw new IllegalArgumentException("other must have " + hi.length + " elements, got " + other.hi.length);
        }
        for (int i = 0; i < hi.length; i++) {
            double a = hi[i];
            double b = other.hi[i];
            double s = a + b;
            double bb = s - a;
            double err = (a - (s - bb)) + (b - bb);
            hi[i] = s;
            lo[i] += other.lo[i] + err;
        }
        return this;
    }

    /** Element i of the sum, rounded once: {@code hi + lo}. */
    public double value(int i) {
        return hi[i] + lo[i];
    }

    /** Every element, rounded once. */
    public double[] values() {
        double[] out = new double[hi.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = hi[i] + lo[i];
        }
        return out;
    }
}
