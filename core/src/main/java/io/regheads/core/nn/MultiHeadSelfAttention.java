package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.api.ops.impl.broadcast.BroadcastAddOp;
import org.nd4j.linalg.api.ops.impl.broadcast.BroadcastSubOp;
import org.nd4j.linalg.api.ops.impl.transforms.custom.SoftMax;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * Causal multi-head self-attention with an optional additive mask.
 *
 * <pre>
 *   [q | k | v] = x Wqkv + bqkv                      x [B, T, d] -> [B, T, 3d]  (one fused {@link Linear})
 *   per head h (width dh = d / H, columns h*dh .. h*dh+dh-1 of q, k, v):
 *     s[t, u] = q_t . k_u / sqrt(dh) + mask[(b,) t, u]   for u &lt;= t   (u > t is excluded: causal)
 *     P[t, .] = softmax(s[t, .])                          probabilities [B, H, T, T], zero above the diagonal
 *     a_t     = sum_u P[t, u] v_u                          heads concatenated -> [B, T, d]
 *   y = a Wo + bo                                         [B, T, d]
 * </pre>
 * The mask is {@code [T, T]} (shared) or {@code [B, T, T]}, added to the scaled scores; -inf removes a pair; NaN and
 * +inf are rejected. A row whose every allowed score is -inf has no softmax and raises an exception.
 *
 * <p>Two kernels compute the same thing ({@link Kernel}): a plain-Java loop over host copies in arena scratch
 * arrays (no ND4J dispatch; the fast CPU path for small T) and an ND4J-ops path (batched {@code Nd4j.matmul}, ND4J
 * softmax; portable to the CUDA backend, allocates per call). {@link Kernel#AUTO} picks JAVA when T &lt;= {@value #JAVA_MAX_T}. Tests assert
 * both agree. Backward, per row t: {@code dP = dA_t . v_u}, {@code dS = P (dP - sum_u P dP)}, {@code dq_t = dS k /
 * sqrt(dh)}, {@code dk_u += dS q_t / sqrt(dh)}, {@code dv_u += P dA_t}; the mask gets no gradient.
 *
 * <p>Non-causal (bidirectional) attention, for encoders, comes from the constructor with {@code causal = false}:
 * the {@code u <= t} restriction is dropped and only the mask removes pairs (e.g. a padding mask with -inf in the
 * columns of padded positions); everything else, including backward, is the same formula. (Added beside the
 * causal-only constructors; backward compatible.)
 *
 * <p>Inference: {@link #snapshot()} copies the parameters into a {@link CachedAttention}, which runs one new position
 * at a time against the cached keys and values of the earlier ones; {@link TransformerBlock.Snapshot} drives it.
 *
 * <p>Parameters: {@code name.qkv.weight [d, 3d]}, {@code name.qkv.bias [3d]}, {@code name.out.weight [d, d]},
 * {@code name.out.bias [d]} (PyTorch {@code nn.Linear} initialisation). Thread safety as {@link Linear}.
 */
public final class MultiHeadSelfAttention implements Layer<MultiHeadSelfAttention.Cache> {

    /** Largest T for which {@link Kernel#AUTO} uses the plain-Java kernel. */
    public static final int JAVA_MAX_T = 16;

    /** Which implementation of the attention core (the projections always use gemm). */
    public enum Kernel {
        /** JAVA for T &lt;= {@value MultiHeadSelfAttention#JAVA_MAX_T}, ND4J otherwise. */
        AUTO,
        /** Plain-Java loops over host memory (CPU backend). */
        JAVA,
        /** ND4J batched matmul and softmax ops (any backend). */
        ND4J
    }

    /**
     * @param qkv       cache of the fused projection; its output is [B, T, 3d]
     * @param probs     attention probabilities [B, H, T, T] (zero above the diagonal)
     * @param out       cache of the output projection; its input rows are the attention values a [B*T, d]
     * @param javaKernel whether the plain-Java kernel ran
     */
    public record Cache(Linear.Cache qkv, INDArray probs, Linear.Cache out, boolean javaKernel)
            implements Layer.Cache {
        @Override
        public INDArray output() {
            return out.output();
        }
    }

    private final int d;
    private final int heads;
    private final int dh;
    private final DataType type;
    private final Kernel kernel;
    private final boolean causal;
    private final Linear qkv;
    private final Linear out;

    /**
     * @param name   parameter name prefix
     * @param d      model width >= 1
     * @param heads  number of heads, >= 1, dividing d
     * @param kernel which attention core to run
     * @throws IllegalArgumentException on bad sizes or type
     */
    public MultiHeadSelfAttention(String name, int d, int heads, Kernel kernel, DataType type,
            UniformRandomProvider rng) {
        this(name, d, heads, kernel, true, type, rng);
    }

    /**
     * @param name   parameter name prefix
     * @param d      model width >= 1
     * @param heads  number of heads, >= 1, dividing d
     * @param kernel which attention core to run
     * @param causal true: position t attends to u &lt;= t only; false: to every u (the mask alone removes pairs)
     * @throws IllegalArgumentException on bad sizes or type
     */
    public MultiHeadSelfAttention(String name, int d, int heads, Kernel kernel, boolean causal, DataType type,
            UniformRandomProvider rng) {
        this.causal = causal;
        Checks.notNull("name", name);
        this.d = Checks.atLeast("d", d, 1);
        this.heads = Checks.atLeast("heads", heads, 1);
        Checks.require(d % heads == 0, "heads must divide d = %d, got %d", d, heads);
        this.dh = d / heads;
        this.type = Tensors.paramType("type", type);
        this.kernel = Checks.notNull("kernel", kernel);
        this.qkv = new Linear(name + ".qkv", d, 3 * d, type, rng);
        this.out = new Linear(name + ".out", d, d, type, rng);
    }

    /** Name prefix {@code attn}, {@link Kernel#AUTO}, seeded. */
    public MultiHeadSelfAttention(int d, int heads, DataType type, long seed) {
        this("attn", d, heads, Kernel.AUTO, type, Tensors.rng(seed));
    }

    /** {@return the model width d} */
    public int width() {
        return d;
    }

    /** {@return the number of heads} */
    public int heads() {
        return heads;
    }

    /** {@return the kernel choice} */
    public Kernel kernel() {
        return kernel;
    }

    /** Whether position t attends to u &lt;= t only. */
    public boolean causal() {
        return causal;
    }

    /** The fused q, k, v projection (d -> 3d). */
    public Linear qkv() {
        return qkv;
    }

    /** The output projection (d -> d). */
    public Linear out() {
        return out;
    }

    @Override
    public List<Param> params() {
        return List.of(qkv.weight(), qkv.bias(), out.weight(), out.bias());
    }

    /** Without a mask: causal attention only. */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        return forward(input, null, arena);
    }

    /**
     * @param input [B, T, d] in the parameters' type
     * @param mask  null, or additive [T, T] or [B, T, T] in the parameters' type (finite or -inf)
     * @throws IllegalArgumentException on wrong shapes or types, a NaN/+inf mask entry, or a fully masked row
     */
    public Cache forward(INDArray input, INDArray mask, Arena arena) {
        Checks.rank("input", input, 3);
        Tensors.rowsOf("input", input, type, d, 3);
        int b = Math.toIntExact(input.size(0));
        int t = Math.toIntExact(input.size(1));
        INDArray m = mask == null ? null : checkMask(mask, b, t);
        Linear.Cache cq = qkv.forward(input, arena); // [B, T, 3d]
        boolean java = kernel == Kernel.JAVA || (kernel == Kernel.AUTO && t <= JAVA_MAX_T);
        INDArray probs = arena.get(type, b, heads, t, t); // [B, H, T, T]
        INDArray a = arena.get(type, b, t, d); // [B, T, d]
        if (java) {
            forwardJava(cq.output(), m, probs, a, b, t, arena);
        } else {
            forwardNd4j(cq.output(), m, probs, a, b, t);
        }
        Linear.Cache co = out.forward(a, arena); // [B, T, d]
        return new Cache(cq, probs, co, java);
    }

    private INDArray checkMask(INDArray mask, int b, int t) {
        Checks.require(mask.dataType() == type, "mask must have data type %s, got %s", type, mask.dataType());
        boolean shared = Arrays.equals(mask.shape(), new long[] {t, t});
        Checks.require(shared || Arrays.equals(mask.shape(), new long[] {b, t, t}),
                "mask must have shape [%d, %d] or [%d, %d, %d], got %s", t, t, b, t, t, Arrays.toString(mask.shape()));
        INDArray c = Tensors.contiguous(mask);
        double[] v = Host.doubles(c);
        for (int i = 0; i < v.length; i++) {
            double x = v[i];
            if (!(x < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException(
                        "mask must be finite or -inf everywhere, got " + x + " at flat index " + i);
            }
        }
        return c;
    }

    private void forwardJava(INDArray qkvOut, INDArray mask, INDArray probs, INDArray a, int b, int t,
            Arena arena) {
        boolean perExample = mask != null && mask.rank() == 3;
        if (type == DataType.FLOAT) {
            float[] pa = arena.floats(Math.toIntExact(probs.length()));
            float[] aa = arena.floats(Math.toIntExact(a.length()));
            FloatKernels.attention(arena.floatsOf(qkvOut), mask == null ? null : arena.floatsOf(mask),
                    perExample, pa, aa, b, t, d, heads, causal);
            Host.write(pa, probs);
            Host.write(aa, a);
        } else {
            double[] pa = arena.doubles(Math.toIntExact(probs.length()));
            double[] aa = arena.doubles(Math.toIntExact(a.length()));
            DoubleKernels.attention(arena.doublesOf(qkvOut), mask == null ? null : arena.doublesOf(mask),
                    perExample, pa, aa, b, t, d, heads, causal);
            Host.write(pa, probs);
            Host.write(aa, a);
        }
    }

    /** [B, T, 3d] -> the q, k or v part as [B, H, T, dh] (a copy). */
    private INDArray part(INDArray qkvOut, int which, int b, int t) {
        return qkvOut.get(NDArrayIndex.all(), NDArrayIndex.all(), NDArrayIndex.interval(which * d, (which + 1) * d))
                .dup('c').reshape('c', b, t, heads, dh).permute(0, 2, 1, 3).dup('c');
    }

    private void forwardNd4j(INDArray qkvOut, INDArray mask, INDArray probs, INDArray a, int b, int t) {
        INDArray q = part(qkvOut, 0, b, t);
        INDArray k = part(qkvOut, 1, b, t);
        INDArray v = part(qkvOut, 2, b, t);
        INDArray s = Nd4j.matmul(q, k, null, false, true, false).muli(1.0 / Math.sqrt(dh)); // [B, H, T, T]
        if (causal) {
            Nd4j.exec(new BroadcastAddOp(s, causalMask(t), s, 2, 3));
        }
        if (mask != null) {
            if (mask.rank() == 2) {
                Nd4j.exec(new BroadcastAddOp(s, mask, s, 2, 3));
            } else {
                Nd4j.exec(new BroadcastAddOp(s, mask, s, 0, 2, 3));
            }
            double rowMax = s.max(3).minNumber().doubleValue();
            Checks.require(rowMax > Double.NEGATIVE_INFINITY,
                    "mask must leave at least one finite score per row, got a row with none (max %s)", rowMax);
        }
        Nd4j.exec(new SoftMax(s, probs, 3));
        INDArray o = Nd4j.matmul(probs, v); // [B, H, T, dh]
        a.assign(o.permute(0, 2, 1, 3).dup('c').reshape('c', b, t, d));
    }

    /** [T, T]: 0 on and below the diagonal, -inf above. */
    private INDArray causalMask(int t) {
        INDArray c = Nd4j.zeros(type, t, t);
        for (int i = 0; i < t; i++) {
            for (int u = i + 1; u < t; u++) {
                c.putScalar(i, u, Double.NEGATIVE_INFINITY);
            }
        }
        return c;
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray qkvOut = cache.qkv().output(); // [B, T, 3d]
        int b = Math.toIntExact(qkvOut.size(0));
        int t = Math.toIntExact(qkvOut.size(1));
        INDArray dA = out.backward(cache.out(), dOut, arena); // [B, T, d]
        INDArray dQkv = arena.get(type, b, t, 3 * d); // [B, T, 3d]
        if (cache.javaKernel()) {
            backwardJava(qkvOut, cache.probs(), dA, dQkv, b, t, arena);
        } else {
            backwardNd4j(qkvOut, cache.probs(), dA, dQkv, b, t);
        }
        return qkv.backward(cache.qkv(), dQkv, arena);
    }

    private void backwardJava(INDArray qkvOut, INDArray probs, INDArray dA, INDArray dQkv, int b, int t,
            Arena arena) {
        INDArray g = Tensors.contiguous(dA);
        if (type == DataType.FLOAT) {
            float[] dq = arena.floats(Math.toIntExact(dQkv.length()));
            FloatKernels.attentionBackward(arena.floatsOf(qkvOut), arena.floatsOf(probs),
                    arena.floatsOf(g), dq, b, t, d, heads, causal);
            Host.write(dq, dQkv);
        } else {
            double[] dq = arena.doubles(Math.toIntExact(dQkv.length()));
            DoubleKernels.attentionBackward(arena.doublesOf(qkvOut), arena.doublesOf(probs),
                    arena.doublesOf(g), dq, b, t, d, heads, causal);
            Host.write(dq, dQkv);
        }
    }

    private void backwardNd4j(INDArray qkvOut, INDArray probs, INDArray dA, INDArray dQkv, int b, int t) {
        INDArray q = part(qkvOut, 0, b, t);
        INDArray k = part(qkvOut, 1, b, t);
        INDArray v = part(qkvOut, 2, b, t);
        INDArray dO = dA.reshape('c', b, t, heads, dh).permute(0, 2, 1, 3).dup('c'); // [B, H, T, dh]
        INDArray dP = Nd4j.matmul(dO, v, null, false, true, false); // [B, H, T, T]
        INDArray dV = Nd4j.matmul(probs, dO, null, true, false, false); // [B, H, T, dh]
        INDArray rowDot = probs.mul(dP).sum(3); // [B, H, T]
        Nd4j.exec(new BroadcastSubOp(dP, rowDot, dP, 0, 1, 2));
        INDArray dS = dP.muli(probs).muli(1.0 / Math.sqrt(dh));
        INDArray dQ = Nd4j.matmul(dS, k); // [B, H, T, dh]
        INDArray dK = Nd4j.matmul(dS, q, null, true, false, false); // [B, H, T, dh]
        INDArray[] parts = {dQ, dK, dV};
        for (int w = 0; w < 3; w++) {
            dQkv.get(NDArrayIndex.all(), NDArrayIndex.all(), NDArrayIndex.interval(w * d, (w + 1) * d))
                    .assign(parts[w].permute(0, 2, 1, 3).dup('c').reshape('c', b, t, d));
        }
    }

    /** {@return an immutable copy of the current parameters for the key/value-cached step} */
    public CachedAttention snapshot() {
        return new CachedAttention(d, heads, qkv.snapshot(), out.snapshot());
    }

    @Override
    public String toString() {
        return "MultiHeadSelfAttention(d " + d + ", heads " + heads + ", " + kernel + (causal ? "" : ", non-causal")
                + ", " + type + ")";
    }
}
