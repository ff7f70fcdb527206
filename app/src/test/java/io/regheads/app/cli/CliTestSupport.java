package io.regheads.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Runs the command line in-process and writes small CSV files for the tests. */
final class CliTestSupport {
    private CliTestSupport() {}

    /** Exit code and captured streams of one in-process run. */
    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Regheads.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    /**
     * A CSV of {@code rows} rows: x1 = i / rows, x2 = ((7 i) mod 11) / 11, y = 3 x1 - x2 + 0.1 sin(i) (header x1,x2,y).
     */
    static Path linearCsv(Path dir, String name, int rows) throws IOException {
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        for (int i = 0; i < rows; i++) {
            double x1 = (double) i / rows;
            double x2 = ((7 * i) % 11) / 11.0;
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", x1, x2, 3 * x1 - x2 + 0.1 * Math.sin(i)));
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }
}
