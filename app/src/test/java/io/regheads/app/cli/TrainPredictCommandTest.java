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
        // without --target the file has three feature columns for a two-feature model
        CliTestSupport.Run r = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r, "has 3 feature columns (x1,x2,y), the model takes 2; name the target column with --target");
        CliTestSupport.Run r2 = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "z", "--quiet");
        assertOneLineError(r2, "--target: column 'z' is not in the header");
        CliTestSupport.Run r3 = CliTestSupport.run("predict", "--model", model.toString(), "--data", train.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--target", "y", "--quantiles", "0.5,1.5", "--quiet");
        assertOneLineError(r3, "--quantiles: levels must be in (0, 1), got 1.5");
        CliTestSupport.Run r4 = CliTestSupport.run("predict", "--model", tmp.resolve("none.rgh").toString(), "--data",
                train.toString(), "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r4, "--model: file not found");
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
        assertOneLineError(r, "line 3: expected 2 cells as in the header, got 1");
        Files.writeString(bad, "x1,x2\n0.1,abc\n");
        CliTestSupport.Run r2 = CliTestSupport.run("predict", "--model", model.toString(), "--data", bad.toString(),
                "--out", tmp.resolve("p.csv").toString(), "--quiet");
        assertOneLineError(r2, "line 2, column 'x2': not a number: 'abc'");
    }

    /** The parser's fast path gives exactly what Double.parseDouble gives, and hands everything else to it. */
    @Test
    void fastNumberParsingEqualsDoubleParseDouble() {
        java.util.Random r = new java.util.Random(4);
        String[] fixed = {"0", "-0", "-0.0", "1", "+1", "1.", ".5", "-.5", "1e5", "1E-5", "2.5e+3", "123456789012345",
            "1234567890123456", "0.000000000000000000000001", "9007199254740993", "1e22", "1e23", "1e-22", "1e-23",
            "3.14159265358979", "-7.000000", "0.1", "0.3", "1.7976931348623157e308", "4.9e-324"};
        for (String s : fixed) {
            check(s);
        }
        for (int i = 0; i < 200_000; i++) {
            double v = switch (i % 4) {
                case 0 -> r.nextDouble();
                case 1 -> (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20);
                case 2 -> Math.round(r.nextGaussian() * 1e6) / 1e6;
                default -> Double.longBitsToDouble(r.nextLong());
            };
            if (Double.isFinite(v)) {
                check(Double.toString(v));
                check(String.format(java.util.Locale.ROOT, "%.9f", v));
            }
        }
        for (String bad : new String[] {"", "-", "e5", "1e", "1.2.3", "0x10", "1,5", "abc", "NaN", "Infinity"}) {
            double v = NumericCsvReader.fastParse(bad, 0, bad.length());
            assertTrue(Double.isNaN(v), "fast path must decline '" + bad + "', got " + v);
        }
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

    private static void check(String s) {
        double fast = NumericCsvReader.fastParse(s, 0, s.length());
        if (!Double.isNaN(fast)) {
            assertEquals(Double.doubleToRawLongBits(Double.parseDouble(s)), Double.doubleToRawLongBits(fast), s);
        }
    }

    private static void assertOneLineError(CliTestSupport.Run r, String expectedPart) {
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit(), () -> "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), () -> "one error line expected, got: " + err);
        assertTrue(err.contains(expectedPart), () -> "'" + expectedPart + "' expected in: " + err);
    }
}
