package io.regheads.core.train;

import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import java.util.List;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** Test model: y_hat = x w + b with MSE, written with raw Params and Nd4j.gemm (double precision). */
final class LinearRegressionModel implements TrainableModel {
    final Param w; // [D, 1]
    final Param b; // [1, 1]

    LinearRegressionModel(int d) {
        w = new Param("w", Nd4j.zeros(DataType.DOUBLE, d, 1));
        b = new Param("b", Nd4j.zeros(DataType.DOUBLE, 1, 1));
    }

    @Override
    public List<Param> params() {
        return List.of(w, b);
    }

    /** Forward into an arena buffer: [B, 1]. */
    private INDArray predict(INDArray x, Arena arena) {
        INDArray pred = arena.get(DataType.DOUBLE, x.size(0), 1); // [B, 1]
        Nd4j.gemm(x, w.value(), pred, false, false, 1.0, 0.0); // x w
        pred.addi(b.value().getDouble(0)); // + b
        return pred;
    }

    @Override
    public double trainStep(INDArray x, double[] y, Arena arena) {
        int n = y.length;
        INDArray pred = predict(x, arena);
        INDArray dPred = arena.get(DataType.DOUBLE, n, 1); // [B, 1]
        double loss = 0;
        double db = 0;
        for (int i = 0; i < n; i++) {
            double r = pred.getDouble(i) - y[i];
            loss += r * r;
            dPred.putScalar(i, 2 * r / n); // d/dpred of mean(r^2)
            db += 2 * r / n;
        }
        Nd4j.gemm(x, dPred, w.grad(), true, false, 1.0, 1.0); // dW += x^T dPred
        b.grad().addi(db);
        return loss / n;
    }

    @Override
    public double evaluate(INDArray x, double[] y, Arena arena) {
        INDArray pred = predict(x, arena);
        double loss = 0;
        for (int i = 0; i < y.length; i++) {
            double r = pred.getDouble(i) - y[i];
            loss += r * r;
        }
        return loss / y.length;
    }
}
