package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * Lookup table: token id {@code i} in [0, V) maps to row {@code i} of the weight {@code [V, d]}.
 *
 * <p>Its input is integer ids, so it does not implement {@link Layer}: {@code forward(int[] ids, ...)} copies rows
 * into an arena buffer; {@code backward} scatters {@code dOut} rows back into the weight gradient ({@code dW[id] +=
 * dOut[n]}, accumulating over repeated ids) and returns nothing (ids have no gradient).
 *
 * <p>Initialisation as PyTorch's {@code nn.Embedding}: N(0, 1).
 *
 * <p>Every id is range-checked (O(N), cheap). Thread safety as {@link Linear}.
 */
public final class Embedding {

    /**
     * @param ids    the ids, copied (row-major [B, T] when {@code batch} was given)
     * @param output [N, d] or [B, T, d]
     */
    public record Cache(int[] ids, INDArray output) implements Layer.Cache {
        /**
         * Copies the ids.
         *
         * @param ids    the looked-up ids
         * @param output the gathered rows
         */
        public Cache {
            ids = ids.clone();
        }

        /** {@return a copy of the looked-up ids} */
        @Override
        public int[] ids() {
            return ids.clone();
        }
    }

    private final int vocabulary;
    private final int d;
    private final DataType type;
    private final Param weight;

    /**
     * @param name       prefix of the parameter name ({@code name.weight})
     * @param vocabulary V >= 1
     * @param d          embedding width >= 1
     */
    public Embedding(String name, int vocabulary, int d, DataType type, UniformRandomProvider rng) {
        Checks.notNull("name", name);
        this.vocabulary = Checks.atLeast("vocabulary", vocabulary, 1);
        this.d = Checks.atLeast("d", d, 1);
        this.type = Tensors.paramType("type", type);
        Checks.notNull("rng", rng);
        this.weight = new Param(name + ".weight", Tensors.normal(rng, 1.0, type, vocabulary, d));
    }

    /** Parameter named {@code embedding.weight}. */
    public Embedding(int vocabulary, int d, DataType type, long seed) {
        this("embedding", vocabulary, d, type, Tensors.rng(seed));
    }

    /** {@return the vocabulary size V} */
    public int vocabularySize() {
        return vocabulary;
    }

    /** {@return the embedding width d} */
    public int width() {
        return d;
    }

    /** [V, d]. */
    public Param weight() {
        return weight;
    }

    /** {@return the table, {@code embedding.weight [V, d]}} */
    public List<Param> params() {
        return List.of(weight);
    }

    /**
     * Rows of the table for {@code ids}: output {@code [ids.length, d]}.
     *
     * @throws IllegalArgumentException if ids is null or empty, or an id is outside [0, V)
     */
    public Cache forward(int[] ids, Arena arena) {
        Checks.notNull("ids", ids);
        return lookup(ids, arena.get(type, ids.length, d));
    }

    /**
     * Rows for ids laid out row-major as [batch, T]: output {@code [batch, T, d]}, T = ids.length / batch.
     *
     * @throws IllegalArgumentException if batch &lt; 1 or does not divide ids.length, or an id is out of range
     */
    public Cache forward(int[] ids, int batch, Arena arena) {
        Checks.notNull("ids", ids);
        Checks.atLeast("batch", batch, 1);
        Checks.require(ids.length % batch == 0, "ids.length must be a multiple of batch %d, got %d", batch,
                ids.length);
        return lookup(ids, arena.get(type, batch, ids.length / batch, d));
    }

    private Cache lookup(int[] ids, INDArray out) {
        Checks.require(ids.length > 0, "ids must not be empty, got length 0");
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] < 0 || ids[i] >= vocabulary) {
                throw new IllegalArgumentException(
                        "ids[" + i + "] must be in [0, " + vocabulary + "), got " + ids[i]);
            }
        }
        double[] w = Host.doubles(weight.value()); // [V, d]
        double[] o = new double[ids.length * d]; // [N, d]
        for (int n = 0; n < ids.length; n++) {
            System.arraycopy(w, ids[n] * d, o, n * d, d);
        }
        Host.write(o, out);
        return new Cache(ids, out);
    }

    /**
     * Scatter-adds {@code dOut} rows into the weight gradient: {@code dW[ids[n]] += dOut[n]}.
     *
     * @param dOut same shape and type as {@code cache.output()}
     */
    public void backward(Cache cache, INDArray dOut) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray dy = Tensors.contiguous(dOut);
        int[] ids = cache.ids;
        double[] g = Host.doubles(weight.grad()); // [V, d]
        double[] dv = Host.doubles(dy); // [N, d]
        for (int n = 0; n < ids.length; n++) {
            int dst = ids[n] * d;
            int src = n * d;
            for (int j = 0; j < d; j++) {
                g[dst + j] += dv[src + j];
            }
        }
        Host.write(g, weight.grad());
    }

    @Override
    public String toString() {
        return "Embedding(" + vocabulary + " x " + d + ", " + type + ")";
    }
}
