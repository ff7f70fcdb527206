package io.regheads.core.nn;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.ArrayChecks;
import io.regheads.core.internal.Host;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The default encoder {@code phi(x)}: {@code layers} times (Linear, ReLU).
 * <pre>
 *   h_0 = x                            [B, D_in]
 *   h_l = ReLU(h_{l-1} W_l + b_l)       [B, width],  l = 1..layers
 *   phi = h_layers                      [B, width]
 * </pre>
 * As the {@code Encoder} of the PyTorch reference implementation ({@code relu(l2(relu(l1(x))))}). Initialisation:
 * PyTorch's default
 * {@code nn.Linear} (uniform on +-1/sqrt(fan_in) for weights and biases) from a XO_RO_SHI_RO_128_PP generator seeded
 * with {@link MlpEncoderConfig#seed()}, so equal configs give equal weights. Parameters {@code enc.l1.weight},
 * {@code enc.l1.bias}, ... in layer order.
 *
 * <p>Input policy: the input is this library's entry point for user data, so it is checked for NaN/Inf (one native
 * reduction, small next to the encoder's matrix products) in addition to shape and type.
 *
 * <p>Example: {@code new MlpEncoder(MlpEncoderConfig.small(8, 42), DataType.FLOAT)} maps [128, 8] to [128, 256].
 * Thread safety as {@link Linear}.
 */
public final class MlpEncoder implements Layer<MlpEncoder.Cache> {

    /** One cache per (Linear, ReLU) pair, in order; output is phi. */
    public record Cache(List<Linear.Cache> linear, List<ReLU.Cache> relu) implements Layer.Cache {
        /**
         * Copies the lists.
         *
         * @param linear the Linear caches, in layer order
         * @param relu   the ReLU caches, in layer order
         */
        public Cache {
            linear = List.copyOf(linear);
            relu = List.copyOf(relu);
        }

        @Override
        public INDArray output() {
            return relu.get(relu.size() - 1).output();
        }
    }

    private final MlpEncoderConfig config;
    private final DataType type;
    private final List<Linear> linear;
    private final ReLU relu = new ReLU();
    private final List<Param> params;

    /** @throws IllegalArgumentException if type is not FLOAT/DOUBLE */
    public MlpEncoder(MlpEncoderConfig config, DataType type) {
        this.config = Checks.notNull("config", config);
        this.type = Tensors.paramType("type", type);
        UniformRandomProvider rng = Tensors.rng(config.seed());
        List<Linear> ls = new ArrayList<>();
        List<Param> ps = new ArrayList<>();
        int in = config.inputWidth();
        for (int l = 1; l <= config.layers(); l++) {
            Linear lin = new Linear("enc.l" + l, in, config.width(), type, rng);
            ls.add(lin);
            ps.addAll(lin.params());
            in = config.width();
        }
        this.linear = List.copyOf(ls);
        this.params = Collections.unmodifiableList(ps);
    }

    /** {@return the sizes and seed} */
    public MlpEncoderConfig config() {
        return config;
    }

    /** Width of phi. */
    public int outputWidth() {
        return config.width();
    }

    /** The affine layers, in order. */
    public List<Linear> layers() {
        return linear;
    }

    @Override
    public List<Param> params() {
        return params;
    }

    /**
     * @param input [B, D_in], finite, the parameters' type
     * @return phi [B, width] as {@code cache.output()}
     * @throws IllegalArgumentException on a wrong shape or type, an empty batch, or a NaN/Inf entry
     */
    @Override
    public Cache forward(INDArray input, Arena arena) {
        Checks.rank("input", input, 2);
        Tensors.rowsOf("input", input, type, config.inputWidth(), 2);
        ArrayChecks.allFinite("input", input);
        List<Linear.Cache> lc = new ArrayList<>(linear.size());
        List<ReLU.Cache> rc = new ArrayList<>(linear.size());
        INDArray h = input;
        for (Linear lin : linear) {
            Linear.Cache c = lin.forward(h, arena);
            ReLU.Cache r = relu.forward(c.output(), arena);
            lc.add(c);
            rc.add(r);
            h = r.output();
        }
        return new Cache(lc, rc);
    }

    /**
     * phi for prediction: the same values as {@code forward(input, arena).output()}, without caches for backward;
     * each ReLU is applied in place on its layer's output (see {@link #infer(INDArray, Arena)}). Thread-safe for
     * concurrent calls (no shared buffers).
     *
     * @param input [B, D_in], finite, the parameters' type
     * @return phi [B, width], a fresh array
     * @throws IllegalArgumentException as {@link #forward}
     */
    public INDArray infer(INDArray input) {
        return infer(input, Arena.none());
    }

    /**
     * As {@link #infer(INDArray)} with every layer output from {@code arena} and each ReLU applied in place ({@link
     * Host#relu}: {@code max(x, 0)} as the training pass computes it, chunk by chunk through a small scratch array,
     * no whole-array copy): a prediction loop that resets one arena per chunk of rows allocates no native memory
     * after its first chunk. The result is an arena buffer, valid until the arena hands it out again. Concurrent
     * calls need separate arenas.
     *
     * @param input [B, D_in], finite, the parameters' type
     * @return phi [B, width]
     * @throws IllegalArgumentException as {@link #forward}
     */
    public INDArray infer(INDArray input, Arena arena) {
        Checks.rank("input", input, 2);
        Tensors.rowsOf("input", input, type, config.inputWidth(), 2);
        ArrayChecks.allFinite("input", input);
        INDArray h = input;
        for (Linear lin : linear) {
            INDArray y = lin.forward(h, arena).output(); // [B, width], c-ordered
            Host.relu(y); // in place
            h = y;
        }
        return h;
    }

    @Override
    public INDArray backward(Cache cache, INDArray dOut, Arena arena) {
        return backward(cache, dOut, arena, true);
    }

    /**
     * Accumulates every parameter gradient without the gradient with respect to the input (which training on data
     * never needs: one matrix product fewer). Same checks as {@link #backward}.
     */
    public void backwardParams(Cache cache, INDArray dOut, Arena arena) {
        backward(cache, dOut, arena, false);
    }

    private INDArray backward(Cache cache, INDArray dOut, Arena arena, boolean inputGradient) {
        Tensors.sameAs("dOut", dOut, cache.output());
        INDArray g = dOut;
        for (int l = linear.size() - 1; l >= 0; l--) {
            g = relu.backward(cache.relu().get(l), g, arena);
            if (l == 0 && !inputGradient) {
                linear.get(0).backwardParams(cache.linear().get(0), g, arena);
                return null;
            }
            g = linear.get(l).backward(cache.linear().get(l), g, arena);
        }
        return g;
    }

    @Override
    public String toString() {
        return "MlpEncoder(" + config + ", " + type + ")";
    }
}
