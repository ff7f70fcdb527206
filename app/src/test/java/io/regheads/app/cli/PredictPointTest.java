package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PointLoss;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code predict --point LOSS}: the extra column against the model in-process, and the refusals. */
class PredictPointTest {
    @TempDir
    Path tmp;

    /** y = 10 + 3 x1 - x2 + 0.1 sin(i): positive, far from 0 (so mape exists). */
    private Path positiveCsv(String name, int rows) throws IOException {
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        for (int i = 0; i < rows; i++) {
            double x1 = (double) i / rows;
            double x2 = ((7 * i) % 11) / 11.0;
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", x1, x2, 10 + 3 * x1 - x2 + 0.1 * Math.sin(i)));
        }
        Path p = tmp.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    private Path train(Path data, String head) {
        Path model = tmp.resolve(head + ".rgh");
        CliTestSupport.Run t = CliTestSupport.run("train", "--data", data.toString(), "--head", head, "--epochs", "3",
                "--save", model.toString(), "--quiet");
        assertEquals(0, t.exit(), t.err());
        return model;
    }

    @Test
    void pointColumnIsTheOptimumOfTheChosenLoss() throws IOException {
        Path model = train(positiveCsv("train.csv", 120), "quantile");
        Path score = positiveCsv("score.csv", 30);
        Path out = tmp.resolve("pinball.csv");
        CliTestSupport.Run p = CliTestSupport.run("predict", "--model", model.toString(), "--data", score.toString(),
                "--out", out.toString(), "--quantiles", "0.9", "--target", "y", "--point", "pinball:0.9", "--quiet",
                "--digits", "17");
        assertEquals(0, p.exit(), p.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("mean,median,point,q0.9,log_density", lines.get(0));
        for (String line : lines.subList(1, lines.size())) {
            String[] c = line.split(",");
            assertEquals(c[2], c[3], "the 0.9 pinball point is the 0.9 quantile: " + line);
        }

        out = tmp.resolve("mape.csv");
        p = CliTestSupport.run("predict", "--model", model.toString(), "--data", score.toString(), "--out",
                out.toString(), "--quantiles", "none", "--point", "MAPE", "--target", "y", "--quiet", "--digits", "17");
        assertEquals(0, p.exit(), p.err());
        lines = Files.readAllLines(out);
        assertEquals("mean,median,point,log_density", lines.get(0));
        Dataset d = CsvLoader.load(score, "y");
        double[] expected = RegressionModel.load(model).predict(d.x()).point(PointLoss.absolutePercentage());
        for (int i = 0; i < 30; i++) {
            // rows through the model in one chunk of 30 here and in-process: the same products
            assertEquals(expected[i], Double.parseDouble(lines.get(i + 1).split(",")[2]), 1e-9 * Math.abs(expected[i]));
        }
    }

    @Test
    void refusalsNameTheOptionAndTheRow() throws IOException {
        Path data = CliTestSupport.linearCsv(tmp, "lin.csv", 60); // y from about -1 to 3: density at 0
        Path model = train(data, "mdn");
        Path out = tmp.resolve("out.csv");
        CliTestSupport.Run p = CliTestSupport.run("predict", "--model", model.toString(), "--data", data.toString(),
                "--target", "y", "--out", out.toString(), "--point", "mape", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, p.exit());
        assertTrue(p.err().contains("--point mape (row 0 below is data row 1): mape: row ")
                && p.err().contains("at 0, which makes E[1/|Y|] infinite"), p.err());
        assertTrue(!Files.exists(out), "no output on a refusal");
        p = CliTestSupport.run("predict", "--model", model.toString(), "--data", data.toString(), "--target", "y",
                "--out", out.toString(), "--point", "rmse", "--quiet");
        assertEquals(Regheads.EXIT_BAD_INPUT, p.exit());
        assertTrue(p.err().contains("--point must be an estimate (mean, median, mode, greedy, sample-mean, sample-median, auto) or, in predict, a cost (mse, mae, mape, pinball:<tau>"), p.err());
    }
}
