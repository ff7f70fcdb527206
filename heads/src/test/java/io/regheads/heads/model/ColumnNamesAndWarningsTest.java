package io.regheads.heads.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A model records the column names of its training data and matches later rows by name; its warnings reach a user
 * who passes no listener, through SLF4J.
 */
class ColumnNamesAndWarningsTest {

    /** Rows with named columns: y depends on the columns very differently, so a swap would show. */
    private static Dataset named(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][3];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 10 * r.nextDouble();
            x[i][1] = r.nextDouble();
            x[i][2] = -5 * r.nextDouble();
            y[i] = 2 * x[i][0] + 0.1 * x[i][1] - x[i][2] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y, List.of("rooms", "age", "distance"), "price");
    }

    private static RegressionModel fitted() {
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 32, new MixtureSpec(3), null,
                TrainerConfig.defaults().withMaxEpochs(3).withSeed(1)), 3);
        m.fit(named(300, 1));
        return m;
    }

    /** The same rows with columns in another order give the same predictions by name, and other ones by position. */
    @Test
    void rowsAreMatchedByNameInAnyOrder() {
        RegressionModel m = fitted();
        assertEquals(List.of("rooms", "age", "distance"), m.featureNames());
        assertEquals(Optional.of("price"), m.targetName());
        Dataset test = named(50, 2);
        double[][] x = test.x();
        double[][] swapped = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            swapped[i] = new double[] {x[i][2], x[i][0], x[i][1]};
        }
        Dataset reordered = Dataset.of(swapped, test.y(), List.of("distance", "rooms", "age"), "price");
        double[] expected = m.predict(x).mean();
        assertArrayEquals(expected, m.predict(reordered).mean(), 0.0);
        assertArrayEquals(expected, m.predict(swapped, List.of("distance", "rooms", "age")).mean(), 0.0);
        assertArrayEquals(m.predictPoint(x), m.predictPoint(reordered), 0.0);
        io.regheads.core.head.Decoding median = io.regheads.core.head.Decoding.of(
                io.regheads.core.head.PointEstimate.MEDIAN);
        assertArrayEquals(m.predictPoint(x, median), m.predictPoint(swapped, List.of("distance", "rooms", "age"),
                median), 0.0);
        assertArrayEquals(new int[] {1, 2, 0}, m.columnOrder(List.of("distance", "rooms", "age")));
        double[] positional = m.predict(swapped).mean();
        int moved = 0;
        for (int i = 0; i < x.length; i++) {
            moved += Math.abs(positional[i] - expected[i]) > 1 ? 1 : 0;
        }
        assertTrue(moved > 25, "taken by position the swapped columns move most predictions, moved " + moved);
        // the names survive a save and load
        RegressionModel back = RegressionModel.fromBytes(m.toBytes());
        assertEquals(m.featureNames(), back.featureNames());
        assertEquals(m.targetName(), back.targetName());
        assertArrayEquals(expected, back.predict(reordered).mean(), 0.0);
    }

    @Test
    void missingUnknownAndRenamedColumnsAreRefusedByName() {
        RegressionModel m = fitted();
        double[][] two = {{1, 2}};
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> m.predict(two, List.of("rooms", "age")));
        assertEquals("column 'distance' is missing: the model was trained on it (features: rooms, age, distance)",
                e.getMessage());
        double[][] three = {{1, 2, 3}};
        e = assertThrows(IllegalArgumentException.class, () -> m.predict(three, List.of("rooms", "Age", "distance")));
        assertEquals("column 'Age' is not a feature of this model: the model was not trained on it; did you mean "
                + "'age'? (features: rooms, age, distance)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.predict(three, List.of("rooms", "price", "distance")));
        assertEquals("column 'price' is not a feature of this model: it is the model's target (leave it out of the "
                + "features) (features: rooms, age, distance)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> m.predict(three, List.of("rooms", "rooms", "age")));
        assertEquals("columns must be distinct: 'rooms' appears twice", e.getMessage());
    }

    /**
     * {@code fit(data)} with no listener: the heavy-tail warning is logged through SLF4J (slf4j-simple writes to
     * System.err in the tests), and a model that learned nothing says so too.
     */
    @Test
    void warningsReachAUserWithoutAListenerThroughSlf4j() {
        // 0, 1, ..., 395 and four of 1e5: the central 98% (4 left out at each end) spans [4, 395], the range is 256
        // times that: a heavy tail (TargetCheck warns above 100, refuses above 1e4)
        double[][] x = new double[400][1];
        double[] y = new double[400];
        for (int i = 0; i < y.length; i++) {
            x[i][0] = i / 400.0;
            y[i] = i < 396 ? i : 1e5;
        }
        Dataset heavy = Dataset.of(x, y);
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 8, new PointwiseSpec(false), null,
                TrainerConfig.defaults().withMaxEpochs(1).withSeed(1)), 1);
        String logged = stderrOf(() -> m.fit(heavy));
        assertTrue(logged.contains("WARN io.regheads.heads.model.RegressionModel - y is heavy-tailed: its range ["),
                logged);
    }

    /** Targets all 0 but one 1e300 are refused (no longer fitted with every prediction near 1e298). */
    @Test
    void aTargetRangeBeyondWhatScalingCarriesIsRefused() {
        Dataset d = named(200, 5);
        double[] y = new double[200];
        y[17] = 1e300;
        RegressionModel m = RegressionModel.create(new ModelConfig(2, 16, new PointwiseSpec(false), null,
                TrainerConfig.defaults().withMaxEpochs(1)), 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> m.fit(d.withY(y)));
        assertTrue(e.getMessage().startsWith("y has a range too wide for min-max scaling: max - min = 1.0E300")
                && e.getMessage().contains("LOG for positive right-skewed targets"), e.getMessage());
        assertFalse(m.isFitted());
    }

    private static String stderrOf(Runnable r) {
        PrintStream saved = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setErr(saved);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
