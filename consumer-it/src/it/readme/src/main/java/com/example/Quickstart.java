package com.example;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.metrics.Evaluation;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.nio.file.Path;

/** The README's first library example, compiled against the README's POM (its lines between the markers). */
public final class Quickstart {
    private Quickstart() {}

    public static void main(String[] args) {
        // README example: start
        Dataset train = CsvLoader.load(Path.of("train.csv"), "price");           // header row; "price" is y
        RegressionModel model = RegressionModel.create(ModelConfig.defaults(new MixtureSpec(10)), train.features());
        model.fit(train);                                                        // early stopping on 10% of the rows
        Dataset test = CsvLoader.load(Path.of("test.csv"), "price");
        PredictiveDistribution d = model.predict(test);                         // one distribution per row, by name
        double[] median = d.median(), q90 = d.inverseCumulativeProbability(0.9), logp = d.logDensity(test.y());
        Evaluation scores = model.evaluate(test);                                // NLL, CRPS, RMSE, coverage, PIT
        model.save(Path.of("price.rgh"));                                        // RegressionModel.load(...) predicts the same
        // README example: end
        System.out.println(median.length + " " + q90.length + " " + logp.length + " " + scores);
    }
}
