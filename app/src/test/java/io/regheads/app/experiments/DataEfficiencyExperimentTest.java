package io.regheads.app.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.app.cli.InputData;
import io.regheads.app.experiments.DataEfficiencyExperiment.Point;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataEfficiencyExperimentTest {

    /**
     * On the embedded airfoil data (test = fold 0, 300 rows), every head learns from more rows: at 800 training rows
     * its relative MSE is below 0.7 (predicting the test mean scores 1) and at least 0.2 below its score at 30 rows.
     * A run whose subsets were not applied, or whose targets were misaligned with x, would be flat near 1.
     */
    @Test
    void everyHeadImprovesWithMoreRows() {
        DataEfficiencyExperiment.Config c = new DataEfficiencyExperiment.Config(List.of(InputData.embedded()),
                List.of(30, 800), DataEfficiencyExperiment.HEADS, 300, 20, 64, 1, 0);
        DataEfficiencyExperiment.Result r = DataEfficiencyExperiment.run(c, s -> { });
        assertEquals(6, r.points().size());
        for (String h : DataEfficiencyExperiment.HEADS) {
            Point small = find(r, 30, h);
            Point large = find(r, 800, h);
            System.out.printf("%s: relative MSE %.3f at 30 rows, %.3f at 800%n", h, small.relativeMse(),
                    large.relativeMse());
            assertTrue(large.relativeMse() < 0.7, h + " at 800 rows: " + large.relativeMse());
            assertTrue(large.relativeMse() < small.relativeMse() - 0.2, h + ": " + small.relativeMse() + " -> "
                    + large.relativeMse());
        }
    }

    private static Point find(DataEfficiencyExperiment.Result r, int n, String head) {
        return r.points().stream().filter(p -> p.size() == n && p.head().equals(head)).findFirst().orElseThrow();
    }
}
