package io.regheads.core.nn;

/**
 * A {@link MultiHeadSelfAttention} in the key/value-cached inference step: an immutable copy of its parameters
 * ({@link MultiHeadSelfAttention#snapshot()}) that runs one new position of N rows against the cached keys and
 * values of their earlier positions ({@link KeyValues}). Reference: {@link MultiHeadSelfAttention#forward} at the
 * last position of a causal pass (the JAVA kernel); {@code DecoderHeadTest} compares the two. The step keeps
 * queries, keys, values and scores in double and sums each dot product in sequence, where the training kernel
 * reads the array type and sums in four partial sums: the two agree to rounding, not bit for bit.
 *
 * <p>Two forms. {@link #add(double[], double[], int, int, KeyValues)} caches k and v and adds {@code a Wo + bo}
 * into the residual, a from the usual causal softmax. The projected form (for {@link TransformerBlock.Tabulated})
 * caches per head {@code pv_h = v_h Wo[h rows, :]} (the head's values through its rows of the output projection)
 * and adds {@code bo + sum_h sum_u p_hu pv_hu}, the same function with the projection done once per cached
 * position instead of once per step.
 *
 * <p>Immutable; thread-safe (the caches passed in are written).
 */
public final class CachedAttention {
    private final int d;
    private final int heads;
    private final int dh;
    private final double scale;
    private final Linear.Snapshot qkv;
    private final Linear.Snapshot out;

    CachedAttention(int d, int heads, Linear.Snapshot qkv, Linear.Snapshot out) {
        this.d = d;
        this.heads = heads;
        this.dh = d / heads;
        this.scale = 1.0 / Math.sqrt(dh);
        this.qkv = qkv;
        this.out = out;
    }

    /** A cache of plain keys and values for {@link #add}. */
    KeyValues newCache(int rows, int positions) {
        return new KeyValues(rows, positions, d, d);
    }

    /** A cache of keys and per-head projected values for the projected form. */
    KeyValues newProjectedCache(int rows, int positions) {
        return new KeyValues(rows, positions, d, heads * d);
    }

    /**
     * Stores position {@code pos}'s keys and values and adds the attention output into x.
     *
     * @param x   {@code [n, d]} residual, updated
     * @param h   {@code [n, d]} the normalised input LN1(x)
     * @param n   rows
     * @param pos the new position (its keys and values are stored; positions below it are read)
     * @param kv  the rows' cache
     */
    void add(double[] x, double[] h, int n, int pos, KeyValues kv) {
        double[] q = qkv.apply(h, n); // [N, 3d]
        double[] a = new double[n * d]; // [N, d]
        double[] sc = new double[pos + 1];
        double[] kc = kv.keys;
        double[] vc = kv.values;
        int td = kv.positions * d;
        for (int r = 0; r < n; r++) {
            System.arraycopy(q, r * 3 * d + d, kc, r * td + pos * d, d);
            System.arraycopy(q, r * 3 * d + 2 * d, vc, r * td + pos * d, d);
            for (int hh = 0; hh < heads; hh++) {
                int qo = r * 3 * d + hh * dh;
                double max = Double.NEGATIVE_INFINITY;
                for (int u = 0; u <= pos; u++) {
                    int ko = r * td + u * d + hh * dh;
                    double s = 0;
                    for (int j = 0; j < dh; j++) {
                        s += q[qo + j] * kc[ko + j];
                    }
                    sc[u] = s * scale;
                    max = Math.max(max, sc[u]);
                }
                double z = 0;
                for (int u = 0; u <= pos; u++) {
                    sc[u] = Math.exp(sc[u] - max);
                    z += sc[u];
                }
                int ao = r * d + hh * dh;
                for (int j = 0; j < dh; j++) {
                    a[ao + j] = 0;
                }
                for (int u = 0; u <= pos; u++) {
                    double p = sc[u] / z;
                    int vo = r * td + u * d + hh * dh;
                    for (int j = 0; j < dh; j++) {
                        a[ao + j] += p * vc[vo + j];
                    }
                }
            }
        }
        double[] o = out.apply(a, n); // [N, d]
        for (int i = 0; i < x.length; i++) {
            x[i] += o[i];
        }
    }

    /**
     * The tables of {@link Table} for {@code rows} normalised input rows {@code h = LN1(x)} {@code [rows, d]}.
     */
    Table table(double[] h, int rows) {
        double[] q3 = qkv.apply(h, rows); // [rows, 3d]
        double[] q = new double[rows * d];
        double[] k = new double[rows * d];
        for (int r = 0; r < rows; r++) {
            System.arraycopy(q3, r * 3 * d, q, r * d, d);
            System.arraycopy(q3, r * 3 * d + d, k, r * d, d);
        }
        return new Table(q, k, projectHeads(q3, rows));
    }

    /**
     * The projected form from row-specific inputs: stores position {@code pos}'s keys and projected values
     * computed from {@code h = LN1(x)} and adds the attention output into x.
     */
    void addProjected(double[] x, double[] h, int n, int pos, KeyValues kv) {
        double[] q = qkv.apply(h, n); // [N, 3d]
        double[] pv = projectHeads(q, n); // [N, H d]
        int[] qOff = new int[n];
        int hd = heads * d;
        for (int r = 0; r < n; r++) {
            qOff[r] = r * 3 * d;
            System.arraycopy(q, r * 3 * d + d, kv.keys, r * kv.positions * d + pos * d, d);
            System.arraycopy(pv, r * hd, kv.values, r * kv.positions * hd + pos * hd, hd);
        }
        attendProjected(x, q, qOff, n, pos, kv);
    }

    /**
     * The projected form from table rows: row r's input at position {@code pos} is table row {@code
     * tableRows[r]}, whose q, k and projected values are looked up.
     */
    void addProjected(double[] x, Table table, int[] tableRows, int n, int pos, KeyValues kv) {
        int[] qOff = new int[n];
        int hd = heads * d;
        for (int r = 0; r < n; r++) {
            int e = tableRows[r];
            qOff[r] = e * d;
            System.arraycopy(table.k(), e * d, kv.keys, r * kv.positions * d + pos * d, d);
            System.arraycopy(table.pv(), e * hd, kv.values, r * kv.positions * hd + pos * hd, hd);
        }
        attendProjected(x, table.q(), qOff, n, pos, kv);
    }

    /** {@code x_r += bo + sum_h sum_{u <= pos} p_hu pv_hu}, q of row r at {@code q[qOff[r] ..]}. */
    private void attendProjected(double[] x, double[] q, int[] qOff, int n, int pos, KeyValues kv) {
        int td = kv.positions * d;
        int tp = kv.positions * heads * d;
        double[] kc = kv.keys;
        double[] pc = kv.values;
        double[] sc = new double[pos + 1];
        double[] bo = out.bias();
        for (int r = 0; r < n; r++) {
            int xo = r * d;
            for (int j = 0; j < d; j++) {
                x[xo + j] += bo[j];
            }
            for (int hh = 0; hh < heads; hh++) {
                int qo = qOff[r] + hh * dh;
                double max = Double.NEGATIVE_INFINITY;
                for (int u = 0; u <= pos; u++) {
                    int ko = r * td + u * d + hh * dh;
                    double s = 0;
                    for (int j = 0; j < dh; j++) {
                        s += q[qo + j] * kc[ko + j];
                    }
                    sc[u] = s * scale;
                    max = Math.max(max, sc[u]);
                }
                double z = 0;
                for (int u = 0; u <= pos; u++) {
                    sc[u] = Math.exp(sc[u] - max);
                    z += sc[u];
                }
                for (int u = 0; u <= pos; u++) {
                    double p = sc[u] / z;
                    int po = r * tp + (u * heads + hh) * d;
                    for (int j = 0; j < d; j++) {
                        x[xo + j] += p * pc[po + j];
                    }
                }
            }
        }
    }

    /**
     * Per-head projected values: for each row r and head h, {@code v_h Wo[h rows, :]} (no bias), {@code [rows, H
     * d]}, from {@code q3 [rows, 3d]} (values at columns 2d..3d).
     */
    private double[] projectHeads(double[] q3, int rows) {
        double[] m = new double[rows * heads * d]; // row (r, h): head h's value entries, zeros elsewhere
        for (int r = 0; r < rows; r++) {
            for (int hh = 0; hh < heads; hh++) {
                System.arraycopy(q3, r * 3 * d + 2 * d + hh * dh, m, (r * heads + hh) * d + hh * dh, dh);
            }
        }
        return out.product(m, rows * heads);
    }

    /**
     * The keys and values a cached step has stored for N rows of up to T positions: keys {@code [N, T, d]}, values
     * {@code [N, T, w]} with w = d, or w = H d for the per-head projected values of a tabulated block ({@link
     * TransformerBlock.Tabulated}). Position p of row r is written by the step at p and read by every later step of
     * the row. Mutable; not thread-safe.
     */
    public static final class KeyValues {
        private final int positions;
        private final int keyWidth;
        private final int valueWidth;
        private final double[] keys; // [N, T, keyWidth]
        private final double[] values; // [N, T, valueWidth]

        KeyValues(int rows, int positions, int keyWidth, int valueWidth) {
            this.positions = positions;
            this.keyWidth = keyWidth;
            this.valueWidth = valueWidth;
            this.keys = new double[rows * positions * keyWidth];
            this.values = new double[rows * positions * valueWidth];
        }

        /**
         * A new cache of {@code rows.length} rows holding rows {@code rows[i]} of this one, positions {@code 0 ..
         * used-1} copied (the rest zero).
         *
         * @param rows indices of rows of this cache (checked by the caller)
         * @param used positions stored so far, at most T
         */
        public KeyValues select(int[] rows, int used) {
            KeyValues c = new KeyValues(rows.length, positions, keyWidth, valueWidth);
            int ks = positions * keyWidth;
            int vs = positions * valueWidth;
            for (int i = 0; i < rows.length; i++) {
                System.arraycopy(keys, rows[i] * ks, c.keys, i * ks, used * keyWidth);
                System.arraycopy(values, rows[i] * vs, c.values, i * vs, used * valueWidth);
            }
            return c;
        }
    }

    /**
     * First-layer tables of a block whose input at every position after the first is one of a fixed set of rows
     * (a decoder's token plus position embeddings): row e holds q and k {@code [d]} and the per-head projected
     * values {@code [H d]} of input row e, so a step looks them up instead of running LN1, the qkv product and the
     * output projection.
     */
    record Table(double[] q, double[] k, double[] pv) {}
}
