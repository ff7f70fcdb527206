package io.regheads.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.nn.Arena;
import io.regheads.core.optim.AdamConfig;
import io.regheads.core.optim.AdamW;
import io.regheads.core.optim.GradientClipping;
import io.regheads.core.train.TrainableModel;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.core.head.HeadSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.heads.pointwise.PointwiseSpec;
import io.regheads.heads.xval.XValHead;
import io.regheads.heads.xval.XValSpec;
import io.regheads.core.nn.FlatParams;
import io.regheads.spark.internal.TrainingBlock;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class DataParallelTrainerTest {
    static SparkSession spark;

    @BeforeAll
    static void setUp() {
        spark = LocalSpark.session();
    }

    static final String[] X = {"x0", "x1", "x2"};

    /** One partition: the distributed run is RegressionModel.fit, bit for bit (weights, losses, epochs, noise). */
    @Test
    void onePartitionIsRegressionModelFitBitForBit() {
        Dataset data = TestData.dataset(300, 5);
        for (HeadSpec head : new HeadSpec[] {new MixtureSpec(3), new PointwiseSpec(false)}) {
            TrainerConfig t = TrainerConfig.defaults().withSeed(9).withBatchSize(32).withMaxEpochs(8)
                    .withValidationFraction(0.2).withPatience(2).withClipNorm(1.0).withWeightDecay(0.01);
            ModelConfig config = new ModelConfig(2, 16, head, null, t);
            RegressionModel single = RegressionModel.create(config, 3);
            TrainingResult expected = single.fit(data);

            DataParallelTrainer.Result r = new DataParallelTrainer(config).fit(TestData.frame(spark, data, 1), X, "y");
            TrainingResult actual = r.training();
            assertEquals(1, r.partitions());
            assertEquals(32, r.partitionBatchSize());
            assertEquals(expected.epochsRun(), actual.epochsRun(), head.name());
            assertEquals(expected.bestEpoch(), actual.bestEpoch(), head.name());
            assertEquals(expected.stopReason(), actual.stopReason(), head.name());
            assertEquals(expected.steps(), actual.steps(), head.name());
            assertEquals(expected.trainLosses(), actual.trainLosses(), head.name());
            assertEquals(expected.validationLosses(), actual.validationLosses(), head.name());
            assertArrayEquals(FlatParams.values(single.params()), FlatParams.values(r.model().params()), head.name());
            assertArrayEquals(single.predict(data.x()).mean(), r.model().predict(data.x()).mean(), head.name());
            assertArrayEquals(single.predict(data.x()).logDensity(data.y()), r.model().predict(data.x()).logDensity(data.y()),
                    head.name());
            // the head's after-fit state (the pointwise head's noise level), by the head's own contract
            assertEquals(single.head().state(), r.model().head().state(), head.name());
            // the provenance of the real run (rows, epochs, stop reason, losses), not of the scalers' set-up
            assertEquals(single.provenance(), r.model().provenance(), head.name());
            assertEquals(240L, r.model().provenance().orElseThrow().trainingRows(), head.name());
            // the training features' statistics that outOfRange compares with: those of all rows
            double[][] probe = {{0, 0, 0}, {50, 0, 0}, {0, 0, -40}};
            var a = single.outOfRange(probe, 5).entries();
            var b = r.model().outOfRange(probe, 5).entries();
            assertEquals(2, a.size(), head.name());
            assertEquals(a.size(), b.size(), head.name());
            for (int i = 0; i < a.size(); i++) {
                assertEquals(a.get(i).row(), b.get(i).row());
                assertEquals(a.get(i).column(), b.get(i).column());
                assertEquals(a.get(i).mean(), b.get(i).mean(), 1e-12);
                assertEquals(a.get(i).sd(), b.get(i).sd(), 1e-12);
            }
        }
    }

    /**
     * K partitions with batch b are one machine with batch K*b: a plain single-JVM loop (trainStep on the union of
     * the partitions' batches, clipping, AdamW) ends at the same parameters after 10 steps, to float-summation
     * tolerance.
     *
     * <p>Tolerance: the two runs differ only in the order of floating-point additions inside each step's gradient
     * (three 16-row batch products summed in double on the driver against one 48-row product), about one rounding
     * (2^-24 for float32, 2^-53 for float64) relative to the gradient; Adam's update (lr 1e-3 times a ratio of
     * moments) passes such differences on without amplifying them much over 10 steps. Bounds: 1e-6 absolute for
     * float32 (16 ulps of the parameters' scale 0.5), 1e-14 for float64; measured 1.5e-8 and 2.8e-17. The bounds
     * discriminate: the same loop with two partitions' shuffles swapped (other global batches) ends 6e-3 away, and
     * training moves the parameters by 1e-2 (measured).
     */
    @Test
    void partitionsEqualOneMachineOnTheUnionBatches() {
        int n = 240;
        int k = 3;
        Dataset data = TestData.dataset(n, 7);
        for (DataType type : new DataType[] {DataType.DOUBLE, DataType.FLOAT}) {
            double tolerance = type == DataType.FLOAT ? 1e-6 : 1e-14;
            TrainerConfig t = TrainerConfig.defaults().withSeed(4).withBatchSize(48).withMaxEpochs(2)
                    .withValidationFraction(0).withClipNorm(5.0).withWeightDecay(0.01);
            ModelConfig config = new ModelConfig(2, 16, new MixtureSpec(3), null, t);
            DataParallelTrainer.Result r = new DataParallelTrainer(config).withDataType(type)
                    .fit(TestData.frame(spark, data, k), X, "y");
            assertEquals(16, r.partitionBatchSize());
            assertEquals(10, r.training().steps(), "2 epochs of ceil(80 / 16) steps");
            double[] distributed = FlatParams.values(r.model().params());
            double[] initial = FlatParams.values(RegressionModel.create(config, 3, type).params());

            Dataset units = r.model().toHeadUnitsOf(data); // the scalers do not change in training
            double[] oneMachine = unionBatchTraining(config, type, units, new int[] {0, 1, 2});
            double[] otherBatches = unionBatchTraining(config, type, units, new int[] {1, 0, 2});
            assertTrue(maxAbsDiff(oneMachine, distributed) <= tolerance, type + ": max |diff| "
                    + maxAbsDiff(oneMachine, distributed) + " > " + tolerance);
            assertTrue(maxAbsDiff(otherBatches, distributed) > 1e-3, type + ": other batches are "
                    + maxAbsDiff(otherBatches, distributed) + " away");
            assertTrue(maxAbsDiff(initial, distributed) > 1e-3, type + ": moved " + maxAbsDiff(initial, distributed));
        }
    }

    /**
     * Single-JVM training on the union batches: step s of epoch e takes, from each partition p, rows [16 s, 16 s +
     * 16) of its epoch-e shuffle, the shuffles seeded as {@code TrainingBlock.seed(seed, seedOf[p])}.
     */
    private static double[] unionBatchTraining(ModelConfig config, DataType type, Dataset units, int[] seedOf) {
        int n = units.rows();
        int k = seedOf.length;
        int b = 16;
        TrainerConfig t = config.trainer();
        RegressionModel ref = RegressionModel.create(config, 3, type); // the same seeded initial weights
        TrainableModel tm = ref.asTrainable();
        AdamW adam = new AdamW(ref.params(), new AdamConfig(t.learningRate(), 0.9, 0.999, 1e-8, t.weightDecay()));
        UniformRandomProvider[] rng = new UniformRandomProvider[k];
        int[][] order = new int[k][];
        for (int p = 0; p < k; p++) {
            rng[p] = RandomSource.XO_RO_SHI_RO_128_PP.create(TrainingBlock.seed(t.seed(), seedOf[p]));
            order[p] = PermutationSampler.natural(n / k);
        }
        Arena arena = Arena.create();
        for (int epoch = 1; epoch <= t.maxEpochs(); epoch++) {
            for (int p = 0; p < k; p++) {
                PermutationSampler.shuffle(rng[p], order[p]);
            }
            for (int step = 0; step < n / k / b; step++) {
                int[] union = new int[k * b];
                for (int p = 0; p < k; p++) {
                    for (int i = 0; i < b; i++) {
                        union[p * b + i] = TestData.sliceStart(n, k, p) + order[p][step * b + i];
                    }
                }
                INDArray x = Nd4j.create(type, union.length, 3);
                double[] y = new double[union.length];
                units.copyRows(union, 0, union.length, x);
                units.copyTargets(union, 0, union.length, y);
                adam.zeroGrad();
                arena.reset();
                tm.trainStep(x, y, arena);
                GradientClipping.clipByGlobalNorm(ref.params(), t.clipNorm());
                adam.step();
            }
        }
        return FlatParams.values(ref.params());
    }

    private static double maxAbsDiff(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    /** Three partitions merged by Spark in whatever order their tasks finish: two runs give the same weights. */
    @Test
    void runsAreReproducible() {
        Dataset data = TestData.dataset(200, 8);
        ModelConfig config = TestData.config(new HistogramSpec(20, false), 1);
        DataParallelTrainer tr = new DataParallelTrainer(config.withTrainer(config.trainer().withValidationFraction(0.25)));
        double[] first = FlatParams.values(tr.fit(TestData.frame(spark, data, 3), X, "y").model().params());
        double[] second = FlatParams.values(tr.fit(TestData.frame(spark, data, 3), X, "y").model().params());
        assertArrayEquals(first, second);
    }

    /**
     * Two partitions, an xVal head, columns named as a user's table names them: the head's after-fit step ran on the
     * held-out rows of every partition (its noise level equals what the head computes itself from those rows, in the
     * same process; it differs from the level on the training rows, so the test tells the two apart), and the model
     * records the DataFrame's column names and predicts by them.
     */
    @Test
    void trainingRunsTheHeadsAfterFitOnTheHeldOutRowsAndRecordsTheColumnNames() {
        int n = 160;
        int k = 2;
        Dataset data = TestData.dataset(n, 12);
        TrainerConfig t = TrainerConfig.defaults().withSeed(5).withBatchSize(32).withMaxEpochs(2)
                .withValidationFraction(0.25);
        ModelConfig config = new ModelConfig(2, 16, new XValSpec(16, false), null, t);
        org.apache.spark.sql.Dataset<Row> named = TestData.frame(spark, data, k).select(
                functions.col("x0").as("speed"), functions.col("x1").as("load"), functions.col("x2").as("temp"),
                functions.col("y").as("price"));
        DataParallelTrainer.Result r = new DataParallelTrainer(config).fit(named, new String[] {"temp", "speed", "load"},
                "price");
        RegressionModel m = r.model();
        assertEquals(40L, r.validationRows());

        // the held-out rows, recomputed here: each partition's slice split as the single-machine trainer splits it
        List<double[]> heldX = new ArrayList<>();
        List<Double> heldY = new ArrayList<>();
        List<double[]> trainX = new ArrayList<>();
        List<Double> trainY = new ArrayList<>();
        for (int p = 0; p < k; p++) {
            int from = TestData.sliceStart(n, k, p);
            int to = TestData.sliceStart(n, k, p + 1);
            double[][] x = new double[to - from][];
            double[] y = new double[to - from];
            for (int i = from; i < to; i++) {
                x[i - from] = new double[] {data.x(i, 2), data.x(i, 0), data.x(i, 1)}; // temp, speed, load
                y[i - from] = data.y(i);
            }
            Trainer.Holdout h = new Trainer(t.withSeed(TrainingBlock.seed(t.seed(), p))).holdout(Dataset.of(x, y));
            for (int i = 0; i < h.validation().rows(); i++) {
                heldX.add(h.validation().row(i));
                heldY.add(h.validation().y(i));
            }
            for (int i = 0; i < h.train().rows(); i++) {
                trainX.add(h.train().row(i));
                trainY.add(h.train().y(i));
            }
        }
        double expected = noiseLevelOn(m, heldX, heldY);
        double onTraining = noiseLevelOn(m, trainX, trainY);
        double actual = m.head().state().get(XValHead.NOISE_STD);
        assertEquals(expected, actual, 0.0, "the head's own after-fit step on the same rows, in the same process");
        assertTrue(Math.abs(onTraining - actual) > 1e-6 * actual, "held-out " + actual + ", training " + onTraining);

        assertEquals(List.of("temp", "speed", "load"), m.featureNames());
        assertEquals(java.util.Optional.of("price"), m.targetName());
        RegressionModel loaded = RegressionModel.fromBytes(m.toBytes());
        assertEquals(List.of("temp", "speed", "load"), loaded.featureNames());
        // columns matched by name, in any order
        double[][] rows = {{0.1, 0.2, 0.3}, {-0.5, 0.4, 0.9}};
        double[][] inModelOrder = {{0.3, 0.1, 0.2}, {0.9, -0.5, 0.4}};
        assertArrayEquals(m.predict(inModelOrder).mean(),
                m.predict(rows, List.of("speed", "load", "temp")).mean());
    }

    /** The noise level the model's head sets from rows (original units, model order) with its own after-fit step. */
    private static double noiseLevelOn(RegressionModel m, List<double[]> x, List<Double> y) {
        RegressionModel copy = RegressionModel.fromBytes(m.toBytes());
        Dataset units = copy.toHeadUnitsOf(Dataset.of(x.toArray(double[][]::new),
                y.stream().mapToDouble(Double::doubleValue).toArray()));
        INDArray in = Nd4j.create(DataType.FLOAT, units.rows(), 3);
        units.copyRows(PermutationSampler.natural(units.rows()), 0, units.rows(), in);
        copy.head().afterFit(copy.encoder().infer(in), units.y());
        return copy.head().state().get(XValHead.NOISE_STD);
    }

    @Test
    void badInputIsRefusedWithTheLibrarysMessages() {
        Dataset data = TestData.dataset(50, 1);
        DataParallelTrainer tr = new DataParallelTrainer(TestData.config(new MixtureSpec(2), 1));
        org.apache.spark.sql.Dataset<Row> df = TestData.frame(spark, data, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tr.fit(df, new String[] {"x0", "z"}, "y"));
        assertEquals("featureCols must name columns of the data, got 'z'; the data has [id, x0, x1, x2, y]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> tr.fit(df, new String[] {"x0", "y"}, "y"));
        assertEquals("featureCols and labelCol must be distinct, got 'y' twice", e.getMessage());
        org.apache.spark.sql.Dataset<Row> withNull = df.withColumn("x1",
                org.apache.spark.sql.functions.when(df.col("id").equalTo(30), null).otherwise(df.col("x1")));
        e = assertThrows(IllegalArgumentException.class, () -> tr.fit(withNull, X, "y"));
        assertEquals("feature column 'x1' must be finite in every training row, got null in row 5 of partition 1",
                e.getMessage());
        org.apache.spark.sql.Dataset<Row> constant = df.withColumn("y", org.apache.spark.sql.functions.lit(2.0));
        e = assertThrows(IllegalArgumentException.class, () -> tr.fit(constant, X, "y"));
        assertTrue(e.getMessage().startsWith("the label must not be constant"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new DataParallelTrainer(TestData.config(new MixtureSpec(2), 1)
                .withTargetTransform(io.regheads.core.data.TargetTransform.ROBUST)));
        assertTrue(e.getMessage().startsWith("config.targetTransform must be NONE for data-parallel training"), e.getMessage());
        io.regheads.heads.decoder.UnnormalizedDecoderSpec raw = io.regheads.heads.decoder.UnnormalizedDecoderSpec.small(10,
                1, 3);
        e = assertThrows(IllegalArgumentException.class, () -> new DataParallelTrainer(TestData.config(raw, 1)));
        assertTrue(e.getMessage().startsWith("config.head must not adapt to the training targets for data-parallel "
                + "training"), e.getMessage());
        new DataParallelTrainer(TestData.config(raw.fittedTo(new double[] {-3, 40}), 1)); // a given range is accepted
        assertThrows(IllegalArgumentException.class, () -> tr.withPartitionBatchSize(-1));
        assertThrows(IllegalArgumentException.class, () -> tr.withDataType(DataType.HALF));
    }
}
