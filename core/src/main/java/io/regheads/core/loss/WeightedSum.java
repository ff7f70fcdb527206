package io.regheads.core.loss;

import io.regheads.core.head.Targets;
import io.regheads.core.head.HeadOutput;
import io.regheads.core.check.Checks;
import java.util.ArrayList;
import java.util.List;

/** {@code sum_i w_i * L_i}: the result of {@link Loss#plus} and {@link Loss#times}. Immutable. */
public final class WeightedSum implements Loss {
    private final List<Loss> terms;
    private final double[] weights;

    private WeightedSum(List<Loss> terms, double[] weights) {
        this.terms = List.copyOf(terms);
        this.weights = weights.clone();
    }

    static WeightedSum of(Loss loss, double weight) {
        Checks.notNull("loss", loss);
        Checks.finite("weight", weight);
        if (loss instanceof WeightedSum s) {
            double[] w = s.weights.clone();
            for (int i = 0; i < w.length; i++) {
                w[i] *= weight;
            }
            return new WeightedSum(s.terms, w);
        }
        return new WeightedSum(List.of(loss), new double[] {weight});
    }

    WeightedSum plus(Loss other, double weight) {
        WeightedSum o = of(other, weight);
        List<Loss> t = new ArrayList<>(terms);
        t.addAll(o.terms);
        double[] w = new double[weights.length + o.weights.length];
        System.arraycopy(weights, 0, w, 0, weights.length);
        System.arraycopy(o.weights, 0, w, weights.length, o.weights.length);
        return new WeightedSum(t, w);
    }

    /** The terms, in order. */
    public List<Loss> terms() {
        return terms;
    }

    /** The weight of term {@code i}. */
    public double weight(int i) {
        return weights[i];
    }

    @Override
    public double accumulate(HeadOutput output, Targets targets, double weight, HeadOutput gradient, double[] perExample) {
        double total = 0;
        for (int i = 0; i < terms.size(); i++) {
            double w = weight * weights[i];
            if (w != 0) {
                total += terms.get(i).accumulate(output, targets, w, gradient, perExample);
            }
        }
        return total;
    }

    @Override
    public String name() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < terms.size(); i++) {
            if (i > 0) {
                sb.append('+');
            }
            if (weights[i] != 1.0) {
                sb.append(weights[i]).append('*');
            }
            sb.append(terms.get(i).name());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return name();
    }
}
