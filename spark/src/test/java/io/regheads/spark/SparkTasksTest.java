package io.regheads.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

class SparkTasksTest {

    record Squared(int input, int value) implements java.io.Serializable {}

    @Test
    void resultsComeBackInInputOrderAsRecords() {
        SparkSession spark = LocalSpark.session();
        List<Squared> out = SparkTasks.run(spark, List.of(3, 1, 4, 1, 5), i -> new Squared(i, i * i));
        assertEquals(List.of(new Squared(3, 9), new Squared(1, 1), new Squared(4, 16), new Squared(1, 1),
                new Squared(5, 25)), out);
        assertEquals(List.of(), SparkTasks.run(spark, List.<Integer>of(), i -> i));
    }

    @Test
    void aBadArgumentInATaskComesBackAsIllegalArgument() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SparkTasks.run(LocalSpark.session(), List.of(1, 2), i -> {
                    if (i == 2) {
                        throw new IllegalArgumentException("i must be 1, got 2");
                    }
                    return i;
                }));
        assertEquals("i must be 1, got 2", e.getMessage());
    }
}
