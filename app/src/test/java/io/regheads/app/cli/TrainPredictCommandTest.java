package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code train --save} then {@code predict}: a CSV round trip checked against {@code RegressionModel} in-process. */
class TrainPredictCommandTest {
    @TempDir
    Path tmp;

    /**
     * Trains and saves a model, scores another file in chunks of 7 rows, and finds in the output the numbers that the
     * loaded model gives in-process for the same rows (up to the float products' rounding for other row counts).
     */
    @ParameterizedTest
    @ValueSource(strings = {"histogram", "mdn", "pointwise"})
    void trainSavePredictRoundTripMatchesTheModelInProcess(String head) throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 120);
        Path score = CliTestSupport.linearCsv(tmp, "score.csv", 50);
        Path model = tmp.resolve(head + ".rgh");
        CliTestSupport.Run t = CliTestSupport.run("train", "--data", train.toString(), "--head", head, "--epochs", "3",
                "--save", model.toString(), "--quiet");
        assertEquals(0, t.exit(), t.err());
        assertTrue(t.out().contains("saved " + model), t.out());
        assertTrue(t.out().contains("features x1,x2"), t.out());
        Path out = tmp.resolve(head + "-predictions.csv");
        CliTestSupport.Run p = CliTestSupport.run("predict", "--model", model.toString(), "--data", score.toString(),
                "--out", out.toString(), "--quantiles", "0.1,0.9", "--target", "y", "--chunk", "7", "--quiet");
        assertEquals(0, p.exit(), p.err());
        assertTrue(p.out().startsWith("predicted 50 rows"), p.out());

        List<String> lines = Files.readAllLines(out);
        assertEquals("mean,median,q0.1,q0.9,log_density", lines.get(0));
        assertEquals(51, lines.size());
        Dataset d = CsvLoader.load(score, "y");
        PredictiveDistribution ref = RegressionModel.load(model).predict(d.x());
        double[] mean = ref.mean();
        double[][] q = ref.quantiles(0.5, 0.1, 0.9);
        double[] logp = ref.logDensity(d.y());
        for (int i = 0; i < 50; i++) {
            String[] c = lines.get(i + 1).split(",");
            assertEquals(5, c.length, lines.get(i + 1));
            double[] expected = {mean[i], q[0][i], q[1][i], q[2][i], logp[i]};
            for (int k = 0; k < 5; k++) {
                // rows go through the model 7 at a time here and 50 at once in-process: the float matrix products
                // may round differently for other row counts (OpenBLAS picks kernels by shape), by about 1e-7
                assertEquals(expected[k], Double.parseDouble(c[k]), 2e-6 * Math.max(1, Math.abs(expected[k])),
                        "row " + i + ", column " + k);
            }
            assertTrue(q[1][i] <= q[0][i] && q[0][i] <= q[2][i], "quantiles in order at row " + i);
        }
    }

    /**
     * Targets with NaN and infinities: {@code train} gives the unnormalized decoder its special tokens (and refuses a
     * head without them, naming the count), {@code predict} writes P(NaN), P(+Inf), P(-Inf) and the mixed
     * log-likelihood, equal to what the loaded model gives in-process.
     */
    @Test
    void nonFiniteTargetsGetTheirProbabilityColumns() throws IOException {
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        for (int i = 0; i < 120; i++) {
            double x1 = (double) i / 120;
            String y = i % 10 == 3 ? "NaN" : i % 20 == 7 ? "Infinity" : i % 20 == 17 ? "-Infinity"
                    : String.format(java.util.Locale.ROOT, "%.6f", 3 * x1 + 0.1 * Math.sin(i));
            sb.append(String.format(java.util.Locale.ROOT, "%.6f,%.6f,%s%n", x1, ((7 * i) % 11) / 11.0, y));
        }
        Path train = tmp.resolve("special.csv");
        Files.writeString(train, sb.toString());
        Path model = tmp.resolve("special.rgh");
        CliTestSupport.Run refused = CliTestSupport.run("train", "--data", train.toString(), "--head", "histogram",
                "--epochs", "1", "--save", model.toString(), "--quiet");
        assertOneLineError(refused, "--head histogram cannot learn NaN or infinite targets");
        assertFalse(Files.exists(model));
        CliTestSupport.Run t = CliTestSupport.run("train", "--data", train.toString(), "--head", "unnormalized-decoder",
                "--epochs", "2", "--save", model.toString(), "--quiet");
        assertEquals(0, t.exit(), t.err());
        Path out = tmp.resolve("special-predictions.csv");
        CliTestSupport.Run p = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", out.toString(), "--quantiles", "none", "--target", "y", "--chunk", "50", "--digits", "17",
                "--quiet");
        assertEquals(0, p.exit(), p.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("mean,median,p_nan,p_posinf,p_neginf,log_likelihood", lines.get(0));
        Dataset d = CsvLoader.load(train, "y");
        RegressionModel m = RegressionModel.load(model);
        io.regheads.core.dist.SpecialValues sv = (io.regheads.core.dist.SpecialValues) m.predict(d.x());
        double[][] expected = {sv.probabilityNaN(), sv.probabilityPositiveInfinity(), sv.probabilityNegativeInfinity(),
            m.logLikelihood(d.x(), d.y())};
        double nanMass = 0;
        for (int i = 0; i < 120; i++) {
            String[] c = lines.get(i + 1).split(",");
            for (int k = 0; k < 4; k++) {
                double e = expected[k][i];
                assertEquals(e, Double.parseDouble(c[k + 2]), 1e-6 * Math.max(1, Math.abs(e)), "row " + i + ", column " + k);
            }
            assertTrue(Double.isFinite(Double.parseDouble(c[5])), "log-likelihood of row " + i + ": " + c[5]);
            nanMass += expected[0][i];
        }
        assertTrue(nanMass > 0, "the decoder puts some mass on NaN after training on 10% NaN");
    }

    /** A training that diverges is exit code 1 with the trainer's reason on one line, and no model file. */
    @Test
    void aFailedTrainingSavesNothingAndExitsWithOne() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 60);
        Path model = tmp.resolve("m.rgh");
        CliTestSupport.Run r = CliTestSupport.run("train", "--data", train.toString(), "--head", "mdn", "--lr", "10",
                "--epochs", "3", "--save", model.toString(), "--quiet");
        assertEquals(Regheads.EXIT_HEAD_FAILED, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("regheads: mdn on ") && r.err().contains(": FAILED (DIVERGED): training diverged")
                && r.err().contains("try a lower learning rate (now 10.0)"), r.err());
        assertFalse(Files.exists(model), "no model file for a failed training");
    }

    @Test
    void featureColumnsMustMatchTheModel() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 60);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "pointwise", "--epochs", "1",
                "--save", model.toString(), "--quiet").exit());
        // without --target the file holds the model's own target among its features
        CliTestSupport.Run r = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r, "column 'y' of " + train + " is the model's target: name it with --target y to score it");
        CliTestSupport.Run r2 = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "Y", "--quiet");
        assertOneLineError(r2, "--target: no column 'Y' in " + train + "; did you mean 'y'? (columns: x1, x2, y)");
        CliTestSupport.Run r3 = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "y", "--quantiles", "0.5,1.5", "--quiet");
        assertOneLineError(r3, "--quantiles: levels must be in (0, 1), got 1.5");
        CliTestSupport.Run r4 = CliTestSupport.run("predict", "--model", tmp.resolve("none.rgh").toString(), "--data",
                train.toString(), "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r4, "--model: file not found");
        // a renamed column and a missing one are named
        Path renamed = tmp.resolve("renamed.csv");
        Files.writeString(renamed, Files.readString(train).replaceFirst("x1,x2,y", "x1,size,y"));
        CliTestSupport.Run r5 = CliTestSupport.run("predict", "--model", model.toString(), "--data", renamed.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "y", "--quiet");
        assertOneLineError(r5, renamed + ": column 'size' is not a feature of this model: the model was not trained "
                + "on it (features: x1, x2)");
        Path missing = tmp.resolve("missing.csv");
        Files.writeString(missing, "x1,y\n0.5,1\n");
        CliTestSupport.Run r6 = CliTestSupport.run("predict", "--model", model.toString(), "--data", missing.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "y", "--quiet");
        assertOneLineError(r6, missing + ": column 'x2' is missing: the model was trained on it (features: x1, x2)");
    }

    /**
     * Columns are found by name: the same rows with their columns in another order (and the target first) give the
     * same predictions as the training order, where matching by position moved nearly every prediction.
     */
    @Test
    void swappedColumnsAreMatchedByName() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 120);
        Path score = CliTestSupport.linearCsv(tmp, "score.csv", 40);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "mdn", "--epochs", "3",
                "--save", model.toString(), "--quiet").exit());
        StringBuilder swapped = new StringBuilder();
        for (String line : Files.readAllLines(score)) {
            String[] c = line.split(",");
            swapped.append(c[2]).append(',').append(c[1]).append(',').append(c[0]).append('\n');
        }
        Path other = tmp.resolve("swapped.csv");
        Files.writeString(other, swapped.toString());
        Path a = tmp.resolve("a.csv");
        Path b = tmp.resolve("b.csv");
        assertEquals(0, CliTestSupport.run("predict", "--model", model.toString(), "--data", score.toString(), "--out",
                a.toString(), "--target", "y", "--digits", "17", "--quiet").exit());
        CliTestSupport.Run r = CliTestSupport.run("predict", "--model", model.toString(), "--data", other.toString(),
                "--out", b.toString(), "--target", "y", "--digits", "17", "--quiet");
        assertEquals(0, r.exit(), r.err());
        // the same rows in the same chunks through the same process: bit for bit
        assertEquals(Files.readAllLines(a), Files.readAllLines(b));
        RegressionModel m = RegressionModel.load(model);
        assertEquals(List.of("x1", "x2"), m.featureNames());
        assertEquals(java.util.Optional.of("y"), m.targetName());
    }

    /**
     * predict reads files as train does: quoted cells and a semicolon delimiter (detected, or given with --delimiter)
     * are accepted; Java-only number forms such as {@code 1.5d} and {@code 0x1p3} are refused naming line and column.
     */
    @Test
    void predictReadsCsvAsTrainDoes() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 60);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "pointwise", "--epochs", "1",
                "--save", model.toString(), "--quiet").exit());
        Path plain = tmp.resolve("plain.csv");
        Files.writeString(plain, "x1,x2\n0.25,0.5\n0.75,0.125\n");
        Path quoted = tmp.resolve("quoted.csv");
        Files.writeString(quoted, "\"x2\";\"x1\"\n\"0.5\";\"0.25\"\n0.125;0.75\n");
        Path a = tmp.resolve("a.csv");
        Path b = tmp.resolve("b.csv");
        assertEquals(0, CliTestSupport.run("predict", "--model", model.toString(), "--data", plain.toString(), "--out",
                a.toString(), "--digits", "17", "--quiet").exit());
        for (String[] extra : new String[][] {{}, {"--delimiter", ";"}}) {
            List<String> args = new java.util.ArrayList<>(List.of("predict", "--model", model.toString(), "--data",
                    quoted.toString(), "--out", b.toString(), "--digits", "17", "--quiet"));
            args.addAll(List.of(extra));
            CliTestSupport.Run r = CliTestSupport.run(args.toArray(new String[0]));
            assertEquals(0, r.exit(), r.err());
            assertEquals(Files.readAllLines(a), Files.readAllLines(b));
        }
        for (String cell : new String[] {"1.5d", "0x1p3"}) {
            Path bad = tmp.resolve("bad.csv");
            Files.writeString(bad, "x1,x2\n0.1,0.2\n" + cell + ",0.3\n");
            CliTestSupport.Run r = CliTestSupport.run("predict", "--model", model.toString(), "--data", bad.toString(),
                    "--out", tmp.resolve("p.csv").toString(), "--quiet");
            assertOneLineError(r, "csv cell at line 3 (data row 1), column 1 'x1' is not a finite number: '" + cell
                    + "' (expected plain decimal or scientific notation such as -12.5 or 1.2e-3) in " + bad);
        }
    }

    /**
     * A failed run leaves the previous output as it was: a typo in --target, and a bad row far into the file (after
     * several chunks were scored), each exit 2 with one line naming the problem and no partial file left behind.
     */
    @Test
    void aFailedPredictionKeepsThePreviousOutput() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 60);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "pointwise", "--epochs", "1",
                "--save", model.toString(), "--quiet").exit());
        Path out = tmp.resolve("predictions.csv");
        assertEquals(0, CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(), "--out",
                out.toString(), "--target", "y", "--quiet").exit());
        byte[] before = Files.readAllBytes(out);
        CliTestSupport.Run typo = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", out.toString(), "--target", "yy", "--quiet");
        assertOneLineError(typo, "--target: no column 'yy' in " + train + "; did you mean 'y'?");
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(out)), "output changed by a failed run");
        StringBuilder big = new StringBuilder("x1,x2\n");
        for (int i = 0; i < 1000; i++) {
            big.append(i == 900 ? "0.5,oops" : "0.5,0.25").append('\n');
        }
        Path bad = tmp.resolve("late.csv");
        Files.writeString(bad, big.toString());
        CliTestSupport.Run late = CliTestSupport.run("predict", "--model", model.toString(), "--data", bad.toString(),
                "--out", out.toString(), "--chunk", "64", "--quiet");
        assertOneLineError(late, "csv cell at line 902 (data row 900), column 2 'x2' is not a finite number: 'oops'");
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(out)), "output changed by a failed run");
        try (java.util.stream.Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(), files.filter(f -> f.getFileName().toString().endsWith(".part")).toList(),
                    "no temporary file left behind");
        }
    }

    /** evaluate prints the model's own Evaluation of the file, in text and as JSON. */
    @Test
    void evaluateScoresAFileAsTheModelDoes() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 120);
        Path test = CliTestSupport.linearCsv(tmp, "test.csv", 40);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "mdn", "--epochs", "3",
                "--save", model.toString(), "--quiet").exit());
        io.regheads.core.metrics.Evaluation e = RegressionModel.load(model).evaluate(CsvLoader.load(test, "y"), 0.9);
        CliTestSupport.Run r = CliTestSupport.run("evaluate", "--model", model.toString(), "--data", test.toString(),
                "--levels", "0.9");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains(String.format(java.util.Locale.ROOT, "NLL %.4g   CRPS %.4g   RMSE %.4g", e.nll(),
                e.crps(), e.rmse())), r.out());
        assertTrue(r.out().contains(String.format(java.util.Locale.ROOT, "central 90%% interval: coverage %.3f",
                e.coverage()[0])), r.out());
        CliTestSupport.Run j = CliTestSupport.run("evaluate", "--model", model.toString(), "--data", test.toString(),
                "--json");
        assertEquals(0, j.exit(), j.err());
        assertTrue(j.out().startsWith("{\"model\":") && j.out().contains("\"rows\":40,\"nll\":")
                && j.out().contains("\"levels\":[0.5,0.8,0.9,0.95]"), j.out());
    }

    /** train --head auto: every candidate scored on held-out rows, the best refitted and saved. */
    @Test
    void autoChoosesAHeadOnHeldOutRows() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 120);
        Path model = tmp.resolve("auto.rgh");
        CliTestSupport.Run r = CliTestSupport.run("train", "--data", train.toString(), "--head", "auto",
                "--candidates", "pointwise,mdn", "--select", "CRPS", "--epochs", "3", "--save", model.toString(),
                "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("head chosen by held-out CRPS on 24 rows"), r.out());
        assertEquals(2, r.out().lines().filter(l -> l.contains("CRPS ") && l.contains("NLL ")).count(), r.out());
        String chosen = RegressionModel.load(model).config().head().name();
        assertTrue(r.out().contains("trained " + chosen + " (chosen by held-out CRPS)"), r.out());
        CliTestSupport.Run bad = CliTestSupport.run("train", "--data", train.toString(), "--head", "auto",
                "--candidates", "pointwise,forest", "--save", model.toString(), "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, bad.exit(), bad.err());
    }

    /** calibrate fits conformal intervals on held-out rows; predict --interval --conformal writes them. */
    @Test
    void calibrateThenPredictConformalIntervals() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 120);
        Path held = CliTestSupport.linearCsv(tmp, "held.csv", 60);
        Path model = tmp.resolve("m.rgh");
        Path calibrated = tmp.resolve("m-cal.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "pointwise", "--epochs",
                "3", "--save", model.toString(), "--quiet").exit());
        Path out = tmp.resolve("p.csv");
        CliTestSupport.Run refused = CliTestSupport.run("predict", "--model", model.toString(), "--data",
                held.toString(), "--out", out.toString(), "--target", "y", "--interval", "0.9", "--conformal",
                "--quiet");
        assertOneLineError(refused, "has no conformal intervals; fit them with 'regheads calibrate'");
        CliTestSupport.Run c = CliTestSupport.run("calibrate", "--model", model.toString(), "--data", held.toString(),
                "--save", calibrated.toString());
        assertEquals(0, c.exit(), c.err());
        assertTrue(c.out().startsWith("temperature "), c.out()); // on 30 rows, the intervals on the other 30
        assertTrue(c.out().contains("conformal intervals on 30 rows of " + held + " (target 'y')"), c.out());
        assertEquals(4, c.out().lines().filter(l -> l.contains("widened by")).count(), c.out());
        CliTestSupport.Run p = CliTestSupport.run("predict", "--model", calibrated.toString(), "--data",
                held.toString(), "--out", out.toString(), "--target", "y", "--interval", "0.9", "--conformal",
                "--digits", "17", "--quiet");
        assertEquals(0, p.exit(), p.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("mean,median,q0.05,q0.95,log_density,lower,upper", lines.get(0));
        RegressionModel m = RegressionModel.load(calibrated);
        double[][] iv = m.conformalInterval(CsvLoader.load(held, "y"), 0.9);
        for (int i = 0; i < 60; i++) {
            String[] cells = lines.get(i + 1).split(",");
            assertEquals(iv[0][i], Double.parseDouble(cells[5]), 1e-9 * Math.max(1, Math.abs(iv[0][i])));
            assertEquals(iv[1][i], Double.parseDouble(cells[6]), 1e-9 * Math.max(1, Math.abs(iv[1][i])));
        }
        CliTestSupport.Run level = CliTestSupport.run("predict", "--model", calibrated.toString(), "--data",
                held.toString(), "--out", out.toString(), "--target", "y", "--interval", "0.7", "--conformal", "--quiet");
        assertOneLineError(level, "--interval 0.7 is not a calibrated level");

        // a head whose distribution takes no temperature: the default calibrates its intervals alone, on all rows
        Path quantile = tmp.resolve("q.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "quantile", "--epochs",
                "3", "--save", quantile.toString(), "--quiet").exit());
        CliTestSupport.Run q = CliTestSupport.run("calibrate", "--model", quantile.toString(), "--data",
                held.toString(), "--save", calibrated.toString());
        assertEquals(0, q.exit(), q.err());
        assertTrue(q.out().startsWith("note: the quantile head's distribution takes no temperature; only the "
                + "intervals are calibrated"), q.out());
        assertTrue(q.out().contains("conformal intervals on 60 rows of " + held), q.out());
        assertFalse(RegressionModel.load(quantile).takesTemperature());
        assertTrue(RegressionModel.load(model).takesTemperature());
    }

    @Test
    void malformedRowsNameTheLine() throws IOException {
        Path train = CliTestSupport.linearCsv(tmp, "train.csv", 60);
        Path model = tmp.resolve("m.rgh");
        assertEquals(0, CliTestSupport.run("train", "--data", train.toString(), "--head", "pointwise", "--epochs", "1",
                "--save", model.toString(), "--quiet").exit());
        Path bad = tmp.resolve("bad.csv");
        Files.writeString(bad, "x1,x2\n0.1,0.2\n0.3\n");
        CliTestSupport.Run r = CliTestSupport.run("predict", "--model", model.toString(), "--data", bad.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r, "csv line 3 (data row 1) has 1 cells, expected 2 as in the header of " + bad);
        Files.writeString(bad, "x1,x2\n0.1,abc\n");
        CliTestSupport.Run r2 = CliTestSupport.run("predict", "--model", model.toString(), "--data", bad.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r2, "csv cell at line 2 (data row 0), column 2 'x2' is not a finite number: 'abc'");
    }

    /** Nine significant digits within one unit of the last digit of the exact decimal, parsed back within 1e-8. */
    @Test
    void decimalFormatterKeepsItsDigits() {
        java.util.Random r = new java.util.Random(6);
        String[][] fixed = {{"1.5", "1.5"}, {"100", "100"}, {"0.000123456789", "0.000123456789"}, {"-2.5E-7", "-2.5E-7"},
            {"123456789", "123456789"}, {"1.23456789E9", "1.23456789E9"}, {"0", "0"}, {"-0.0", "-0"}, {"0.1", "0.1"},
            {"9.9999999999", "10"}, {"NaN", "NaN"}, {"-Infinity", "-Infinity"}};
        for (String[] f : fixed) {
            assertEquals(f[1], DecimalFormatter.append(new StringBuilder(), Double.parseDouble(f[0]), 9).toString(), f[0]);
        }
        for (int i = 0; i < 200_000; i++) {
            double v = (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(80) - 40);
            if (i % 7 == 0) {
                v = Double.longBitsToDouble(r.nextLong());
            }
            if (!Double.isFinite(v) || v == 0) {
                continue;
            }
            String s = DecimalFormatter.append(new StringBuilder(), v, 9).toString();
            java.math.BigDecimal exact = new java.math.BigDecimal(v).round(new java.math.MathContext(9));
            java.math.BigDecimal got = new java.math.BigDecimal(s);
            java.math.BigDecimal ulp = exact.ulp();
            assertTrue(got.subtract(exact).abs().compareTo(ulp) <= 0, v + " -> " + s + ", correctly rounded " + exact);
            assertEquals(v, Double.parseDouble(s), 1e-8 * Math.abs(v), s);
        }
    }

    private static void assertOneLineError(CliTestSupport.Run r, String expectedPart) {
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit(), () -> "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), () -> "one error line expected, got: " + err);
        assertTrue(err.contains(expectedPart), () -> "'" + expectedPart + "' expected in: " + err);
    }
}
