package io.regheads.core.optim;

import io.regheads.core.check.Checks;
import io.regheads.core.internal.Host;
import io.regheads.core.nn.Param;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.ops.transforms.Transforms;

/**
 * The shared Adam / AdamW update (PyTorch semantics), on preallocated state.
 *
 * <p>Per element, at step t (1-based), with g the gradient and p the parameter:
 * <pre>
 *   Adam (L2):      g = g + wd * p
 *   AdamW:          p = p * (1 - lr * wd)
 *   m = beta1 * m + (1 - beta1) * g
 *   v = beta2 * v + (1 - beta2) * g^2
 *   p = p - lr / (1 - beta1^t) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
 * </pre>
 *
 * <p><b>Two paths, same numbers.</b> {@link Path#HOST_LOOP}: one plain-Java pass per parameter over the host
 * buffers, state m and v in the parameter's precision (float moments for float parameters, as PyTorch keeps them). {@link Path#ND4J_OPS}:
 * about nine in-place ND4J ops per parameter (scal, axpy, sqrt, rdiv) on preallocated state arrays of the
 * parameter's type; kept for backends without host access (CUDA). The host loop measured about three times
 * faster than the ND4J ops on a small MLP (docs/perf-engine.md), so the CPU backend uses the host loop; other
 * backends use the ND4J ops.
 *
 * <p>Not thread-safe.
 */
final class AdamKernel {

    /** Which implementation performs the update. */
    enum Path { HOST_LOOP, ND4J_OPS }

    private final List<Param> params;
    private final boolean decoupled;
    private final Path path;
    private double learningRate;
    private final double beta1;
    private final double beta2;
    private final double epsilon;
    private final double weightDecay;
    private long t;

    // HOST_LOOP state, one pair per param: float moments for float params, double for double params
    private final double[][] m;
    private final double[][] v;
    private final float[][] mf;
    private final float[][] vf;
    // ND4J_OPS state, one set per param (same type and shape as the param)
    private final INDArray[] mArr;
    private final INDArray[] vArr;
    private final INDArray[] tmp;
    private final INDArray[] tmpGrad;

    AdamKernel(List<Param> params, AdamConfig config, boolean decoupled, Path path) {
        Checks.notNull("params", params);
        Checks.notNull("config", config);
        Checks.require(!params.isEmpty(), "params must not be empty, got 0 parameters");
        this.params = List.copyOf(params);
        this.decoupled = decoupled;
        this.path = path == null ? (Nd4j.getEnvironment().isCPU() ? Path.HOST_LOOP : Path.ND4J_OPS) : path;
        this.learningRate = config.learningRate();
        this.beta1 = config.beta1();
        this.beta2 = config.beta2();
        this.epsilon = config.epsilon();
        this.weightDecay = config.weightDecay();
        int n = this.params.size();
        for (int i = 0; i < n; i++) {
            Param p = this.params.get(i);
            Checks.notNull("params[" + i + "]", p);
            checkLayout("param " + p.name(), p.value());
            checkLayout("gradient of " + p.name(), p.grad());
            for (int j = 0; j < i; j++) {
                Checks.require(this.params.get(j) != p, "params must be distinct, got %s twice", p.name());
            }
        }
        if (this.path == Path.HOST_LOOP) {
            m = new double[n][];
            v = new double[n][];
            mf = new float[n][];
            vf = new float[n][];
            for (int i = 0; i < n; i++) {
                int len = Math.toIntExact(this.params.get(i).size());
                if (this.params.get(i).value().dataType() == DataType.FLOAT) {
                    mf[i] = new float[len];
                    vf[i] = new float[len];
                } else {
                    m[i] = new double[len];
                    v[i] = new double[len];
                }
            }
            mArr = vArr = tmp = tmpGrad = null;
        } else {
            m = v = null;
            mf = vf = null;
            mArr = new INDArray[n];
            vArr = new INDArray[n];
            tmp = new INDArray[n];
            tmpGrad = new INDArray[n];
            for (int i = 0; i < n; i++) {
                INDArray value = this.params.get(i).value();
                mArr[i] = Nd4j.zeros(value.dataType(), value.shape());
                vArr[i] = Nd4j.zeros(value.dataType(), value.shape());
                tmp[i] = Nd4j.zeros(value.dataType(), value.shape());
                tmpGrad[i] = weightDecay > 0 && !decoupled ? Nd4j.zeros(value.dataType(), value.shape()) : null;
            }
        }
    }

    List<Param> params() {
        return params;
    }

    long iterations() {
        return t;
    }

    double learningRate() {
        return learningRate;
    }

    void setLearningRate(double lr) {
        this.learningRate = Checks.positive("learningRate", lr);
    }

    Path path() {
        return path;
    }

    void step() {
        t++;
        double bc1 = 1 - Math.pow(beta1, t);
        double bc2 = 1 - Math.pow(beta2, t);
        double stepSize = learningRate / bc1;
        double invSqrtBc2 = 1 / Math.sqrt(bc2);
        double l2 = decoupled ? 0 : weightDecay;
        double shrink = decoupled ? 1 - learningRate * weightDecay : 1;
        for (int i = 0; i < params.size(); i++) {
            Param p = params.get(i);
            if (path == Path.HOST_LOOP) {
                if (p.value().dataType() == DataType.FLOAT) {
                    hostFloat(p, mf[i], vf[i], stepSize, invSqrtBc2, l2, shrink);
                } else {
                    hostDouble(p, m[i], v[i], stepSize, invSqrtBc2, l2, shrink);
                }
            } else {
                nd4j(p, i, stepSize, invSqrtBc2, l2, shrink);
            }
        }
    }

    /** FLOAT or DOUBLE, c-ordered and contiguous: what the host loop and the ND4J ops both accept. */
    static void checkLayout(String name, INDArray a) {
        Checks.require(a.dataType() == DataType.FLOAT || a.dataType() == DataType.DOUBLE,
                "%s must have data type FLOAT or DOUBLE, got %s", name, a.dataType());
        Checks.require(Host.hostLayout(a), "%s must be contiguous (c order, element-wise stride 1), got ordering %s, "
                + "stride %s", name, a.ordering(), a.elementWiseStride());
    }

    private float[] pScratch = new float[0];
    private float[] gScratch = new float[0];

    /**
     * Float parameters: float moments (as PyTorch keeps them) and float arithmetic over Java arrays, which the JIT
     * vectorises (8-wide sqrt and division); value and gradient are bulk-copied in and the value back out.
     */
    private void hostFloat(Param p, float[] m, float[] v, double stepSize, double invSqrtBc2, double l2,
            double shrink) {
        int n = m.length;
        if (pScratch.length < n) {
            pScratch = new float[n];
            gScratch = new float[n];
        }
        float[] w = pScratch;
        float[] g = gScratch;
        Host.read(p.value(), 0, w, 0, n);
        Host.read(p.grad(), 0, g, 0, n);
        float b1 = (float) beta1, b2 = (float) beta2, c1 = (float) (1 - beta1), c2 = (float) (1 - beta2);
        float eps = (float) epsilon, fl2 = (float) l2, fshrink = (float) shrink, step = (float) stepSize;
        float bc = (float) invSqrtBc2;
        for (int j = 0; j < n; j++) {
            float wj = w[j];
            float gj = g[j] + fl2 * wj;
            float mj = b1 * m[j] + c1 * gj;
            float vj = b2 * v[j] + c2 * gj * gj;
            m[j] = mj;
            v[j] = vj;
            w[j] = wj * fshrink - step * mj / ((float) Math.sqrt(vj) * bc + eps);
        }
        Host.write(w, 0, n, p.value(), 0);
    }

    private void hostDouble(Param p, double[] m, double[] v, double stepSize, double invSqrtBc2, double l2,
            double shrink) {
        double[] pv = Host.doubles(p.value());
        double[] gv = Host.doubles(p.grad());
        double b1 = beta1, b2 = beta2, c1 = 1 - beta1, c2 = 1 - beta2, eps = epsilon;
        for (int j = 0; j < m.length; j++) {
            double w = pv[j];
            double g = gv[j] + l2 * w;
            double mj = b1 * m[j] + c1 * g;
            double vj = b2 * v[j] + c2 * g * g;
            m[j] = mj;
            v[j] = vj;
            pv[j] = w * shrink - stepSize * mj / (Math.sqrt(vj) * invSqrtBc2 + eps);
        }
        Host.write(pv, p.value());
    }

    private void nd4j(Param p, int i, double stepSize, double invSqrtBc2, double l2, double shrink) {
        INDArray value = p.value();
        INDArray g = p.grad();
        long n = value.length();
        var blas = Nd4j.getBlasWrapper().level1();
        if (l2 > 0) {
            g = tmpGrad[i].assign(g);
            blas.axpy(n, l2, value, g); // g + wd * p
        }
        if (shrink != 1) {
            value.muli(shrink); // p * (1 - lr * wd)
        }
        mArr[i].muli(beta1);
        blas.axpy(n, 1 - beta1, g, mArr[i]); // m = b1 m + (1 - b1) g
        INDArray t = tmp[i].assign(g).muli(g); // g^2
        vArr[i].muli(beta2);
        blas.axpy(n, 1 - beta2, t, vArr[i]); // v = b2 v + (1 - b2) g^2
        t.assign(vArr[i]);
        Transforms.sqrt(t, false);
        t.muli(invSqrtBc2).addi(epsilon); // sqrt(v) / sqrt(bc2) + eps
        t.rdivi(mArr[i]); // m / denom
        blas.axpy(n, -stepSize, t, value);
    }
}
