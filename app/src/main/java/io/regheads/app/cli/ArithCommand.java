package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import io.regheads.core.train.ProgressListener;
import io.regheads.app.arith.ArithmeticBenchmark.Config;
import io.regheads.app.arith.ArithmeticBenchmark.Result;
import io.regheads.app.arith.ArithmeticBenchmark.Task;
import io.regheads.app.arith.ArithmeticBenchmark.Variant;
import io.regheads.app.arith.ArithmeticBenchmark;
import io.regheads.tokenizers.text.ChartonScheme;
import io.regheads.app.arith.ArithRuns;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code regheads arith}: numbers in text, the arithmetic benchmark of the xVal and NTL papers
 * ({@link ArithmeticBenchmark}).
 *
 * <p>{@code --task expressions} (default): 2-4 operand expressions such as {@code ((1.32 * 3.21) + (1.42 - 8.20))};
 * xVal encoder + xVal number head against text-token encoders (P10/P1000/B1999/FP15) + a decoder head trained with
 * CE, CE + 0.3 NTL-WAS or GCE; operands out of distribution come from the held-out band [4.00, 4.99].
 * {@code --task multiplication}: the NTL paper's multiplication (1-3 digit factors in training, a 4-digit factor
 * out of distribution) with CE, CE + 0.3 NTL-WAS, CE + 0.3 NTL-MSE. Prints R^2, MAE, exact-match rate and MAPE in
 * and out of distribution per variant.
 *
 * <p>Example: {@code ./regheads arith --train 4000 --test 500 --epochs 10}.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
@Command(name = "arith", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Arithmetic in text: xVal encoder + number head vs text tokens + decoder head (CE, CE+NTL-WAS, "
                + "GCE); or the NTL paper's multiplication task (CE, CE+NTL-WAS, CE+NTL-MSE). R^2, MAE, exact match, "
                + "MAPE in and out of distribution.")
final class ArithCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--task", paramLabel = "T", defaultValue = "expressions",
            description = "expressions or multiplication (default: ${DEFAULT-VALUE}).")
    String task;

    @Option(names = "--variants", paramLabel = "LIST",
            description = "Comma-separated subset of XVAL, XVAL_MULTISCALE, CE, CE_NTL_WAS, CE_NTL_MSE, GCE (default: "
                    + "XVAL,CE,CE_NTL_WAS,GCE "
                    + "for expressions, CE,CE_NTL_WAS,CE_NTL_MSE for multiplication).")
    String variants;

    @Option(names = "--train", paramLabel = "N", defaultValue = "4000", description = "Training examples (default: ${DEFAULT-VALUE}).")
    int train;

    @Option(names = "--test", paramLabel = "N", defaultValue = "500", description = "Examples per test set (default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--epochs", paramLabel = "E", defaultValue = "10", description = "Epochs (default: ${DEFAULT-VALUE}).")
    int epochs;

    @Option(names = "--width", paramLabel = "D", defaultValue = "32", description = "Model width (default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--layers", paramLabel = "L", defaultValue = "2", description = "Encoder blocks (default: ${DEFAULT-VALUE}).")
    int layers;

    @Option(names = "--batch", paramLabel = "B", defaultValue = "64", description = "Batch size (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--lr", paramLabel = "X", defaultValue = "1e-3", description = "Learning rate (default: ${DEFAULT-VALUE}).")
    double lr;

    @Option(names = "--scheme", paramLabel = "S", defaultValue = "P10",
            description = "Text encoding of operands: P10, P1000, B1999, FP15 (default: ${DEFAULT-VALUE}).")
    ChartonScheme scheme;

    @Option(names = "--xval-scale", paramLabel = "X", defaultValue = "0.2",
            description = "Factor on numbers entering the xVal embedding (default: ${DEFAULT-VALUE}).")
    double xvalScale;

    @Option(names = "--gce-sigma", paramLabel = "X", defaultValue = "0.5",
            description = "GCE width in digit units (default: ${DEFAULT-VALUE}).")
    double gceSigma;

    @Option(names = "--operands", paramLabel = "MIN-MAX", defaultValue = "2-4",
            description = "Operand count range of expressions (default: ${DEFAULT-VALUE}).")
    String operands;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "0", description = "Seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--seeds", paramLabel = "LIST",
            description = "Seeds to run, e.g. 0-4 or 0,2,5 (overrides --seed); with more than one, a summary over "
                    + "seeds follows: mean +- standard error and paired differences between variants.")
    String seeds;

    @Option(names = "--results", paramLabel = "FILE",
            description = "Tab-separated results file: each finished run is appended, runs it already holds are "
                    + "skipped, and the summary covers every seed it holds for this setting.")
    Path results;

    @Option(names = "--progress", description = "Print one line per epoch to stderr.")
    boolean progress;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        Task t;
        if (task.equalsIgnoreCase("expressions")) {
            t = Task.EXPRESSIONS;
        } else if (task.equalsIgnoreCase("multiplication")) {
            t = Task.MULTIPLICATION;
        } else {
            throw new IllegalArgumentException("--task must be expressions or multiplication, got '" + task + "'");
        }
        String[] range = operands.split("-");
        Checks.require(range.length == 2, "--operands must look like 2-4, got '%s'", operands);
        int lo;
        int hi;
        try {
            lo = Integer.parseInt(range[0].strip());
            hi = Integer.parseInt(range[1].strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--operands must look like 2-4, got '" + operands + "'");
        }
        String list = variants != null ? variants
                : t == Task.EXPRESSIONS ? "XVAL,CE,CE_NTL_WAS,GCE" : "CE,CE_NTL_WAS,CE_NTL_MSE";
        List<Variant> vs = new ArrayList<>();
        for (String s : list.split(",")) {
            try {
                vs.add(Variant.valueOf(s.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--variants must list XVAL, XVAL_MULTISCALE, CE, CE_NTL_WAS, CE_NTL_MSE, GCE, got '"
                        + s + "'");
            }
        }
        long[] seedList = seeds == null ? new long[] {seed} : parseSeeds(seeds);
        ProgressListener listener = progress ? new ProgressListener() {
            @Override
            public void onEpochEnd(io.regheads.core.train.Progress p) {
                System.err.printf(Locale.ROOT, "  epoch %d/%d train %.5g val %.5g (%.0f s)%n", p.epoch(), p.maxEpochs(),
                        p.trainLoss(), p.validationLoss(), p.elapsed().toMillis() / 1000.0);
            }
        } : ProgressListener.none();
        Map<String, ArithRuns.Run> held = results == null ? new java.util.LinkedHashMap<>() : ArithRuns.read(results);
        List<ArithRuns.Run> runs = new ArrayList<>();
        String setting = null;
        for (long s : seedList) {
            Config c = new Config(t, train, test, epochs, width, layers, batch, lr, scheme, xvalScale, gceSigma, lo,
                    hi, s);
            setting = ArithRuns.setting(c);
            o.println("# " + c);
            o.println(ArithmeticBenchmark.header());
            o.flush();
            for (Variant v : vs) {
                ArithRuns.Run done = held.get(setting + "\t" + s + "\t" + v);
                if (done != null) {
                    o.println(v + ": in " + results + " (skipped)");
                    runs.add(done);
                    continue;
                }
                // one variant at a time, so each row prints as soon as it is done
                for (Result r : ArithmeticBenchmark.run(c, List.of(v), listener)) {
                    o.println(ArithmeticBenchmark.format(r));
                    o.flush();
                    ArithRuns.Run run = ArithRuns.of(c, r);
                    runs.add(run);
                    if (results != null) {
                        ArithRuns.append(results, run);
                    }
                }
            }
        }
        if (results != null) { // every seed the file holds for this setting
            String key = setting;
            runs = ArithRuns.read(results).values().stream()
                    .filter(r -> r.setting().equals(key) && vs.contains(r.variant())).toList();
        }
        if (runs.stream().mapToLong(ArithRuns.Run::seed).distinct().count() > 1) {
            o.println();
            o.println("# over seeds: mean +- standard error; paired differences (better: a variant only when the "
                    + "mean difference is more than two standard errors from 0)");
            o.print(ArithRuns.summary(runs, ArithRuns.paperPairs()));
            o.flush();
        }
        return 0;
    }

    /** Seeds from {@code 0-4} or {@code 0,2,5}. */
    static long[] parseSeeds(String list) {
        List<Long> out = new ArrayList<>();
        for (String part : list.split(",")) {
            String p = part.strip();
            try {
                int dash = p.indexOf('-', 1);
                if (dash > 0) {
                    long a = Long.parseLong(p.substring(0, dash).strip());
                    long b = Long.parseLong(p.substring(dash + 1).strip());
                    Checks.require(a <= b, "--seeds range must be ascending, got '%s'", p);
                    for (long x = a; x <= b; x++) {
                        out.add(x);
                    }
                } else {
                    out.add(Long.parseLong(p));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seeds must look like 0-4 or 0,2,5, got '" + list + "'");
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }
}
