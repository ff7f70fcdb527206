package io.regheads.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.train.TrainingFailedException;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.core.nn.FlatParams;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The data-parallel trainer as a Spark ML Estimator: a Pipeline stage whose fit returns the scorer. */
class DataParallelEstimatorTest {
    static SparkSession spark;
    static Dataset data;
    static org.apache.spark.sql.Dataset<Row> frame;
    static final ModelConfig CONFIG = TestData.config(new MixtureSpec(2), 3);

    @BeforeAll
    static void setUp() {
        spark = LocalSpark.session();
        data = TestData.dataset(120, 21);
        frame = TestData.frame(spark, data, 2).cache();
    }

    /**
     * In a Pipeline, with the epochs overridden by a ParamMap: the stage is the scorer of the model that
     * DataParallelTrainer trains with the same settings (the same weights, bit for bit: the same computation in the
     * same process), inputCols set and its parent the estimator (the copy the Pipeline fits); it scores rows without a
     * label.
     */
    @Test
    void aPipelineStageWhoseFitReturnsTheScorerOfTheTrainersModel() {
        DataParallelEstimator est = new DataParallelTrainer(CONFIG).asEstimator().setInputCols("x0", "x1", "x2")
                .setLabelCol("y").setValidationFraction(0.2);
        Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {est});
        PipelineModel fitted = pipeline.fit(frame, ParamMap.empty().put(est.maxEpochs().w(2)));
        RegressionModelScorer scorer = (RegressionModelScorer) fitted.stages()[0];
        assertEquals(est.uid(), scorer.parent().uid()); // the Pipeline fits a copy of the stage with the ParamMap
        assertSame(scorer.parent(), scorer.copy(ParamMap.empty()).parent());
        assertArrayEquals(new String[] {"x0", "x1", "x2"}, scorer.getOrDefault(scorer.inputCols()));
        RegressionModel model = scorer.model();
        assertEquals(2, model.provenance().orElseThrow().epochs());

        DataParallelTrainer.Result direct = new DataParallelTrainer(CONFIG.withTrainer(CONFIG.trainer().withMaxEpochs(2)
                .withValidationFraction(0.2))).fit(frame, new String[] {"x0", "x1", "x2"}, "y");
        assertArrayEquals(FlatParams.values(direct.model().params()), FlatParams.values(model.params()));

        List<Row> scored = fitted.transform(frame.drop("y")).select("id", "mean", "median").collectAsList();
        assertEquals(120, scored.size());
        double[] mean = model.predict(data.x()).mean();
        for (Row r : scored) {
            // one predict over all rows against the scorer's batches: float rounding (about 1e-7 relative)
            assertEquals(mean[(int) r.getLong(0)], r.getDouble(1), 1e-5 * Math.max(1, Math.abs(r.getDouble(1))));
        }
    }

    @Test
    void missingColumnsAndFailedTrainingFailFit() {
        DataParallelEstimator est = new DataParallelEstimator(new DataParallelTrainer(CONFIG)).setInputCols("x0", "x1")
                .setLabelCol("price");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> est.fit(frame));
        assertEquals("labelCol must name columns of the data, got 'price'; the data has [id, x0, x1, x2, y]",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> est.copy(ParamMap.empty()).setLabelCol("").fit(frame));
        assertEquals("labelCol must name the label column, got none", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> est.setInputCols());
        e = assertThrows(IllegalArgumentException.class, () -> est.setLabelCol("y").setPatience(0).fit(frame));
        assertTrue(e.getMessage().startsWith("patience"), e.getMessage());

        TrainingFailedException f = assertThrows(TrainingFailedException.class, () -> est.setPatience(5)
                .setLearningRate(1e6).setMaxEpochs(1).fit(frame));
        assertTrue(f.getMessage().contains("training diverged"), f.getMessage());
    }
}
