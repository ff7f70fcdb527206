package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {
    @TempDir
    Path tmp;

    private static void assertOneLineError(CliTestSupport.Run r, String expectedPart) {
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit(), () -> "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), () -> "one error line expected, got: " + err);
        assertTrue(err.startsWith("regheads: "), err);
        assertTrue(err.contains(expectedPart), () -> "'" + expectedPart + "' expected in: " + err);
        assertFalse(err.contains("Exception"), () -> "no exception names or stack traces: " + err);
        assertEquals("", r.out());
    }

    @Test
    void missingFileGivesOneLineAndExitCode2() {
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", tmp.resolve("nope.csv").toString(), "--quiet",
                "--out", tmp.toString());
        assertOneLineError(r, "file not found");
    }

    @Test
    void nonNumericCellNamesTheLineAndColumn() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "bad.csv", 20);
        String text = Files.readString(csv).replaceFirst("\n[^\n,]*,", "\nabc,"); // first data row, column x1
        Files.writeString(csv, text);
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--quiet", "--out", tmp.toString());
        assertOneLineError(r, "line 2");
        assertTrue(r.err().contains("'abc'"), r.err());
    }

    @Test
    void constantTargetIsRejected() throws IOException {
        StringBuilder sb = new StringBuilder("a,b,y\n");
        for (int i = 0; i < 30; i++) {
            sb.append(i).append(',').append(i * i).append(",4.5\n");
        }
        Path csv = tmp.resolve("const.csv");
        Files.writeString(csv, sb.toString());
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--quiet", "--out", tmp.toString());
        assertOneLineError(r, "constant");
    }

    @Test
    void fewerThanTenRowsIsRejected() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "small.csv", 9);
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--quiet", "--out", tmp.toString());
        assertOneLineError(r, "9 data rows; at least 10");
    }

    @Test
    void unknownTargetColumnIsRejected() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "t.csv", 20);
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--target", "zz", "--quiet");
        assertOneLineError(r, "zz");
    }

    @Test
    void badLossGivesOneLine() {
        CliTestSupport.Run r = CliTestSupport.run("compare", "--loss", "ce+x", "--quiet");
        assertOneLineError(r, "--loss: loss term 'x' in 'ce+x' is unknown");
    }

    @Test
    void unknownHeadListsTheKnownOnes() {
        CliTestSupport.Run r = CliTestSupport.run("compare", "--heads", "pointwise,spline", "--quiet");
        assertOneLineError(r, "unknown head 'spline'; known heads are pointwise, histogram, mdn");
    }

    @Test
    void badOptionValueGivesOneLine() {
        CliTestSupport.Run r = CliTestSupport.run("compare", "--epochs", "many");
        assertOneLineError(r, "--epochs");
        CliTestSupport.Run f = CliTestSupport.run("compare", "--folds", "0-12", "--quiet");
        assertOneLineError(f, "outside 0..9");
    }

    @Test
    void smallCsvRunsAllHeadsWritesPlotsAndJson() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "lin.csv", 60);
        Path out = tmp.resolve("run");
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--epochs", "2", "--quiet",
                "--out", out.toString(), "--json", "--folds", "0,1", "--loss", "ce+0.3*ntl-was");
        assertEquals(0, r.exit(), r.err());
        String json = r.out().strip();
        assertTrue(json.startsWith("{\"command\":\"compare\",\"dataset\":\"lin\",\"rows\":60,\"features\":2"), json);
        for (String head : new String[] {"pointwise", "histogram", "mdn", "decoder", "unnormalized-decoder", "xval",
            "quantile"}) {
            for (int k = 0; k < 2; k++) {
                assertTrue(json.contains("{\"head\":\"" + head + "\""), head);
                for (String kind : new String[] {"intervals", "pit"}) {
                    Path png = out.resolve(head + "-fold" + k + "-" + kind + ".png");
                    byte[] b = Files.readAllBytes(png);
                    // PNG signature 89 50 4E 47 0D 0A 1A 0A (ISO/IEC 15948, section 5.2)
                    assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A},
                            java.util.Arrays.copyOf(b, 8), png.toString());
                }
            }
        }
        // 60 rows in 10 random folds: 6 test rows and 54 training rows per fold; 7 heads x 2 folds
        assertEquals(14, count(json, "\"testRows\":6"));
        assertEquals(12, count(json, "\"loss\":\"ce+0.3*ntl-was\""), "every head but quantile trains with --loss");
        assertEquals(2, count(json, "\"loss\":\"pinball\""), "quantile outputs take pinball and crps only");
        assertEquals(2, count(json, "\"pointEstimate\":\"auto\""),
                "the unnormalized decoder reports its certified mean, else its median");
        assertEquals(12, count(json, "\"pointEstimate\":\"mean\""));
        assertTrue(json.contains("\"notes\":[\"ce+0.3*ntl-was does not apply to quantile; used pinball\"]"), json);
        assertEquals(json + "\n", Files.readString(out.resolve("results.json")));
    }

    @Test
    void tableHasOneRowPerHeadAndFold() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "lin.csv", 40);
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--epochs", "1", "--quiet",
                "--heads", "mdn,pointwise", "--out", tmp.resolve("t").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\nNLL      mean -log density of test y, in the units of 'y'"), r.out());
        Matcher m = Pattern.compile("(?m)^(mdn|pointwise) +\\S+ +0 ").matcher(r.out());
        int rows = 0;
        while (m.find()) {
            rows++;
        }
        assertEquals(2, rows, r.out());
        assertTrue(r.out().indexOf("\nmdn") < r.out().indexOf("\npointwise"), "order of --heads kept");
    }

    /** --split assigns folds; a test fold whose targets are all equal gives tau NaN (null in JSON), not an error. */
    @Test
    void splitFileIsUsedAndConstantTestTargetsGiveNullTau() throws IOException {
        StringBuilder csv = new StringBuilder("x,y\n");
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            boolean test = i % 10 == 0; // rows 0, 10, 20 form fold 0, all with y = 1
            csv.append(i).append(',').append(test ? 1 : i % 7).append('\n');
            folds.append(test ? 0 : 1 + i % 2).append('\n');
        }
        Path data = tmp.resolve("c.csv");
        Path split = tmp.resolve("fold.txt");
        Files.writeString(data, csv.toString());
        Files.writeString(split, folds.toString());
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", data.toString(), "--split", split.toString(),
                "--heads", "pointwise", "--epochs", "1", "--quiet", "--json", "--out", tmp.resolve("o").toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\"split\":\"fold file " + split + "\""), r.out());
        assertTrue(r.out().contains("\"trainRows\":27,\"testRows\":3"), r.out());
        assertTrue(r.out().contains("\"kendallTau\":null"), r.out());
    }

    /**
     * One target of 1e300 among values 1..60: min-max scaling refuses it (exit 2, naming --target-transform); LOG and
     * ROBUST carry it, and the header and JSON say which transform ran.
     */
    @Test
    void targetTransformCarriesAnExtremeTarget() throws IOException {
        StringBuilder csv = new StringBuilder("x,y\n");
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            csv.append(i).append(',').append(i == 7 ? "1e300" : Integer.toString(1 + i)).append('\n');
            folds.append(i % 10 == 3 ? 3 : i % 3).append('\n'); // row 7 trains in every fold
        }
        Path data = tmp.resolve("extreme.csv");
        Path split = tmp.resolve("fold.txt");
        Files.writeString(data, csv.toString());
        Files.writeString(split, folds.toString());
        CliTestSupport.Run none = CliTestSupport.run("compare", "--data", data.toString(), "--split", split.toString(),
                "--heads", "pointwise",
                "--epochs", "1", "--quiet", "--folds", "3", "--out", tmp.resolve("n").toString());
        assertEquals(Regheads.EXIT_BAD_INPUT, none.exit(), none.err());
        assertTrue(none.err().startsWith("regheads: y has a range too wide for min-max scaling: ")
                && none.err().strip().lines().count() == 1
                && none.err().contains("fit with a target transform (LOG for positive right-skewed targets")
                && none.err().contains("--target-transform on the command line"), none.err());
        for (String t : new String[] {"LOG", "ROBUST"}) {
            CliTestSupport.Run r = CliTestSupport.run("compare", "--data", data.toString(), "--split", split.toString(),
                    "--heads", "pointwise",
                    "--epochs", "1", "--quiet", "--folds", "3", "--target-transform", t, "--out",
                    tmp.resolve(t).toString());
            assertEquals(0, r.exit(), r.err());
            assertTrue(r.out().contains("; target transform " + t + "\n"), r.out());
            assertTrue(Files.readString(tmp.resolve(t).resolve("results.json")).contains("\"targetTransform\":\"" + t
                    + "\""));
        }
        // the unnormalized decoder, on raw y, is trained on log1p(y - min) itself under LOG: the extreme target too
        CliTestSupport.Run raw = CliTestSupport.run("compare", "--data", data.toString(), "--split", split.toString(),
                "--heads", "unnormalized-decoder", "--epochs", "1", "--quiet", "--folds", "3", "--target-transform",
                "LOG", "--json", "--out", tmp.resolve("raw").toString());
        assertEquals(0, raw.exit(), raw.err());
        assertTrue(raw.out().contains("\"head\":\"unnormalized-decoder\""), raw.out());
        assertOneLineError(CliTestSupport.run("compare", "--target-transform", "SQRT"), "--target-transform");
    }

    @Test
    void targetWithoutDataIsRejected() {
        assertOneLineError(CliTestSupport.run("compare", "--target", "y"),
                "--target, --split and --delimiter need --data");
    }

    /**
     * A CSV whose target holds nan, inf and -inf: compare trains the unnormalized decoder with its special tokens,
     * scores the finite test rows as usual and reports the special rows' NLL (mean -log P of the observed special
     * value); a head that cannot learn them is refused before any training.
     */
    @Test
    void nanAndInfTargetsTrainTheSpecialTokenDecoderAndAreRefusedForOtherHeads() throws IOException {
        Path csv = specialCsv(tmp, 60);
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--heads",
                "unnormalized-decoder", "--epochs", "2", "--quiet", "--json", "--out", tmp.resolve("s").toString(),
                "--folds", "0,1,2");
        assertEquals(0, r.exit(), r.err());
        Matcher rows = Pattern.compile("\"nonFiniteTestRows\":(\\d+),\"nllNonFinite\":([^,]+),").matcher(r.out());
        int special = 0;
        while (rows.find()) {
            int n = Integer.parseInt(rows.group(1));
            special += n;
            if (n > 0) {
                double nll = Double.parseDouble(rows.group(2));
                assertTrue(Double.isFinite(nll) && nll > 0, "NLL of the special rows: " + rows.group(2));
            }
        }
        assertTrue(special > 0, "some test fold holds special targets: " + r.out());
        assertTrue(r.out().contains("NaN/infinite targets: learned with special tokens"), r.out());

        CliTestSupport.Run refused = CliTestSupport.run("compare", "--data", csv.toString(), "--heads",
                "unnormalized-decoder,mdn", "--epochs", "1", "--quiet", "--out", tmp.resolve("t").toString());
        assertOneLineError(refused, "has 12 NaN or infinite targets (first at data row 4, NaN); mdn cannot learn them");
        CliTestSupport.Run logged = CliTestSupport.run("compare", "--data", csv.toString(), "--heads",
                "unnormalized-decoder", "--target-transform", "LOG", "--epochs", "1", "--quiet", "--out",
                tmp.resolve("u").toString());
        assertOneLineError(logged, "which has 12 NaN or infinite targets (first at data row 4, NaN), got LOG");
        assertTrue(logged.err().startsWith("regheads: --target-transform must be NONE for "), logged.err());
    }

    /** 60 rows of linearCsv's shape; rows 4, 9, ... hold nan, inf or -inf in turn (12 of them). */
    static Path specialCsv(Path dir, int rows) throws IOException {
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        String[] special = {"nan", "inf", "-inf"};
        for (int i = 0; i < rows; i++) {
            double x1 = (double) i / rows;
            double x2 = ((7 * i) % 11) / 11.0;
            String y = i % 5 == 4 ? special[(i / 5) % 3]
                    : String.format(java.util.Locale.ROOT, "%.6f", 3 * x1 - x2 + 0.1 * Math.sin(i));
            sb.append(String.format(java.util.Locale.ROOT, "%.6f,%.6f,%s%n", x1, x2, y));
        }
        Path p = dir.resolve("special.csv");
        Files.writeString(p, sb.toString());
        return p;
    }

    /** Sampling options need a sample-based --point; an unknown --point lists the known ones. */
    @Test
    void decodingOptionsAreCheckedBeforeTraining() {
        assertOneLineError(CliTestSupport.run("compare", "--temperature", "0.5", "--quiet"),
                "--temperature, --top-k, --top-p and --samples act on --point sample-mean or sample-median, got "
                        + "--point (each head's own)");
        assertOneLineError(CliTestSupport.run("compare", "--point", "typical", "--quiet"),
                "--point must be an estimate (mean, median, mode, greedy, sample-mean, sample-median, auto) or, in "
                        + "predict, a cost (mse, mae, mape, pinball:<tau>, linlin:<under>,<over>, linex:<a>), got "
                        + "'typical'");
        assertOneLineError(CliTestSupport.run("compare", "--point", "sample-mean", "--top-p", "1.5", "--quiet"),
                "topP must be in (0, 1], got 1.5");
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    /**
     * The NLL is the plain NLL of y: a histogram without tails gives inf where a test y lies beyond the training range
     * (fold 0 holds the largest y), printed as "inf" with a note (and in the mean over folds); per fold one head, the
     * one with the lowest
     * validation NLL, is marked with '*'.
     */
    @Test
    void plainNllOutsideTheTrainingRangeIsFiniteAndTheValidationChoiceIsMarked() throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "lin.csv", 40);
        double[] y = io.regheads.core.data.CsvLoader.load(csv).y();
        int top = 0;
        for (int i = 1; i < y.length; i++) {
            top = y[i] > y[top] ? i : top;
        }
        StringBuilder folds = new StringBuilder();
        for (int i = 0; i < y.length; i++) {
            folds.append(i == top || i % 8 == 1 ? 0 : 1 + i % 3).append('\n');
        }
        Path split = tmp.resolve("fold.txt");
        Files.writeString(split, folds.toString());
        CliTestSupport.Run r = CliTestSupport.run("compare", "--data", csv.toString(), "--split", split.toString(),
                "--heads", "pointwise,histogram", "-H", "histogram.tails=false", "--folds", "0,1", "--epochs", "2",
                "--quiet", "--out", tmp.resolve("o").toString());
        assertEquals(0, r.exit(), r.err());
        // the largest y is a test row of fold 0, above the histogram's training range: the model's tails beyond a
        // bounded head give it a finite density, so the plain NLL is finite (it was inf without them)
        Matcher hist = Pattern.compile("(?m)^histogram +ce +0 +(\\S+) ").matcher(r.out());
        assertTrue(hist.find(), r.out());
        assertTrue(Double.isFinite(Double.parseDouble(hist.group(1))), r.out());
        assertFalse(r.out().contains("have zero density (NLL inf)"), r.out());
        for (String fold : new String[] {"0", "1"}) {
            Matcher m = Pattern.compile("(?m)^(pointwise|histogram) +\\S+ +" + fold + " +\\S+ +\\S+\\*").matcher(r.out());
            assertTrue(m.find(), r.out());
            assertFalse(m.find(), "one head per fold is marked: " + r.out());
        }
        assertTrue(r.out().contains("* marks each fold's lowest"), r.out());
        assertFalse(r.out().contains("NLL inf"), r.out());
        String json = Files.readString(tmp.resolve("o").resolve("results.json"));
        assertEquals(2, count(json, "\"chosenByValidation\":true"), json);
        assertTrue(json.contains("\"head\":\"histogram\",\"loss\":\"ce\",\"fold\":0,"), json);
    }
}
