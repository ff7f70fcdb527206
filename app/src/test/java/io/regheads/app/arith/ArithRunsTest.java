package io.regheads.app.arith;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.regheads.app.arith.ArithRuns.Measure;
import io.regheads.app.arith.ArithRuns.Paired;
import io.regheads.app.arith.ArithRuns.Run;
import io.regheads.app.arith.ArithmeticBenchmark.Metrics;
import io.regheads.app.arith.ArithmeticBenchmark.Variant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The results file and the paired comparison of the arithmetic benchmark over seeds, checked by hand. */
class ArithRunsTest {
    @TempDir
    Path tmp;

    static final String SETTING = String.join("\t", "EXPRESSIONS", "2", "2", "3000", "500", "12");

    static Run run(long seed, Variant v, double exactIn, double maeIn) {
        return new Run(SETTING, seed, v, new Metrics(0.9, maeIn, exactIn, 10, 500), new Metrics(0.5, 2, 0, 20, 500),
                12.5);
    }

    static Measure measure(String name) {
        return ArithRuns.MEASURES.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Exact match of A minus B over three seeds: 0.02, 0.03, 0.04; mean 0.03, sd 0.01, standard error 0.01 / sqrt(3)
     * = 0.005774: the mean is 5.2 standard errors above 0, so A is better. MAE differences 1, -1, 0.5: mean 0.1667,
     * within two standard errors (0.6009) of 0.
     */
    @Test
    void pairedDifferencesByHand() {
        List<Run> runs = new ArrayList<>();
        double[][] ab = {{0.10, 0.08, 3, 2}, {0.12, 0.09, 2, 3}, {0.15, 0.11, 2.5, 2}};
        for (int s = 0; s < 3; s++) {
            runs.add(run(s, Variant.CE_NTL_WAS, ab[s][0], ab[s][2]));
            runs.add(run(s, Variant.CE, ab[s][1], ab[s][3]));
        }
        runs.add(run(7, Variant.CE_NTL_WAS, 0.5, 0)); // no CE run for seed 7: not paired
        Paired exact = ArithRuns.paired(runs, Variant.CE_NTL_WAS, Variant.CE, measure("exact in"));
        assertEquals(3, exact.seeds());
        assertEquals(0.03, exact.mean(), 1e-12);
        assertEquals(0.01 / Math.sqrt(3), exact.se(), 1e-12);
        assertEquals("CE_NTL_WAS", exact.verdict());
        Paired mae = ArithRuns.paired(runs, Variant.CE_NTL_WAS, Variant.CE, measure("MAE in"));
        assertEquals(0.5 / 3, mae.mean(), 1e-12);
        assertEquals("=", mae.verdict());
        // lower MAE is better: a consistent MAE gain of A reads as A
        List<Run> lower = List.of(run(0, Variant.GCE, 0, 1.0), run(0, Variant.CE, 0, 2.0), run(1, Variant.GCE, 0, 1.1),
                run(1, Variant.CE, 0, 2.0));
        assertEquals("GCE", ArithRuns.paired(lower, Variant.GCE, Variant.CE, measure("MAE in")).verdict());
        assertEquals("?", ArithRuns.paired(lower.subList(0, 2), Variant.GCE, Variant.CE, measure("MAE in")).verdict());
    }

    /** Appended runs read back with their keys; a last line cut short by an interruption is ignored. */
    @Test
    void resultsFileRoundTrip() throws Exception {
        Path f = tmp.resolve("a/runs.tsv");
        ArithRuns.append(f, run(0, Variant.CE, 0.1, 2));
        ArithRuns.append(f, run(1, Variant.XVAL, 0.2, 1));
        Files.writeString(f, Files.readString(f) + "EXPRESSIONS\t2\t2\t30", java.nio.file.StandardOpenOption.WRITE);
        Map<String, Run> read = ArithRuns.read(f);
        assertEquals(2, read.size());
        Run back = read.get(SETTING + "\t1\tXVAL");
        assertEquals(0.2, back.in().exact(), 1e-12);
        assertEquals(1, back.in().mae(), 1e-12);
        assertEquals(ArithRuns.HEADER, Files.readAllLines(f).get(0));
    }
}
