package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.CsvLoader;
import io.regheads.core.data.Dataset;
import io.regheads.core.head.Decoding;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.decoder.HammingDecoderSpec;
import io.regheads.heads.decoder.RepeatedDecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The head, trainer and encoder options, settings files and the decoding options of {@code predict}, run in-process
 * on tiny files with one or two epochs: what they do is read back from the saved model's settings.
 */
class CliOptionsTest {
    @TempDir
    Path tmp;

    private static void assertOneLineError(CliTestSupport.Run r, String... parts) {
        assertEquals(Regheads.EXIT_BAD_INPUT, r.exit(), () -> "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), () -> "one error line expected, got: " + err);
        assertTrue(err.startsWith("regheads: "), err);
        for (String p : parts) {
            assertTrue(err.contains(p), () -> "'" + p + "' expected in: " + err);
        }
        assertEquals("", r.out());
    }

    private CliTestSupport.Run train(String... more) throws IOException {
        Path csv = CliTestSupport.linearCsv(tmp, "d.csv", 60);
        List<String> args = new ArrayList<>(List.of("train", "--data", csv.toString(), "--quiet"));
        args.addAll(List.of(more));
        return CliTestSupport.run(args.toArray(new String[0]));
    }

    private static ModelConfig saved(Path model) {
        return RegressionModel.load(model).config();
    }

    /** A histogram of 32 bins with tails, and every trainer and encoder option, as the saved model records them. */
    @Test
    void histogramWith32BinsAndTailsAndEveryTrainerOption() throws IOException {
        Path m = tmp.resolve("h.rgh");
        CliTestSupport.Run r = train("--head", "histogram", "-H", "bins=32", "-H", "tails=true", "--epochs", "2",
                "--batch-size", "16", "--weight-decay", "0.0001", "--clip-norm", "1.5", "--validation-share", "0.2",
                "--patience", "3", "--lr", "0.002", "--seed", "5", "--encoder-width", "16", "--encoder-layers", "3",
                "--save", m.toString());
        assertEquals(0, r.exit(), r.err());
        ModelConfig c = saved(m);
        assertEquals(new HistogramSpec(32, true), c.head());
        assertEquals(new TrainerConfig(5, 16, 2, 0.002, 1e-4, 1.5, 0.2, 3), c.trainer());
        assertEquals(3, c.encoderLayers());
        assertEquals(16, c.encoderWidth());
        assertTrue(r.out().contains("settings: bins=32, tails=true; MLP 3x16 ReLU; AdamW lr 0.002, batch 16, weight "
                + "decay 0.0001, gradient norm clipped at 1.5, up to 2 epochs, patience 3 on 20% of the training rows; "
                + "seed 5"), r.out());
    }

    @Test
    void decoderWithBase2And8Digits() throws IOException {
        Path m = tmp.resolve("d.rgh");
        CliTestSupport.Run r = train("--head", "decoder", "-H", "base=2", "-H", "length=8", "--epochs", "1",
                "--encoder-width", "16", "--save", m.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(DecoderSpec.small(2, 8), saved(m).head());
    }

    @Test
    void repetitionAndHammingDecodersTrainAndSave() throws IOException {
        Path rep = tmp.resolve("r.rgh");
        CliTestSupport.Run r = train("--head", "repeat-decoder", "-H", "length=3", "-H", "repeats=2", "--epochs", "1",
                "--encoder-width", "16", "--save", rep.toString());
        assertEquals(0, r.exit(), r.err());
        assertEquals(RepeatedDecoderSpec.small(2, 3, 2), saved(rep).head());
        Path ham = tmp.resolve("h.rgh");
        CliTestSupport.Run h = train("--head", "hamming-decoder", "-H", "bits=4", "--epochs", "1", "--encoder-width",
                "16", "--save", ham.toString());
        assertEquals(0, h.exit(), h.err());
        assertEquals(HammingDecoderSpec.small(4), saved(ham).head());
    }

    /**
     * {@code predict --point sample-mean --temperature 0.8} writes a point column equal to the model's own decoding
     * with those settings (one chunk: the seed itself), recomputed here in the same process (same bits).
     */
    @Test
    void predictWritesAPointColumnDecodedAtTemperature08() throws IOException {
        Path m = tmp.resolve("d.rgh");
        assertEquals(0, train("--head", "decoder", "-H", "base=4", "-H", "length=3", "--epochs", "2",
                "--encoder-width", "16", "--save", m.toString()).exit());
        Path csv = tmp.resolve("d.csv");
        Path out = tmp.resolve("p.csv");
        CliTestSupport.Run r = CliTestSupport.run("predict", "--model", m.toString(), "--data", csv.toString(),
                "--target", "y", "--out", out.toString(), "--point", "sample-mean", "--temperature", "0.8",
                "--samples", "64", "--seed", "3", "--digits", "17", "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("point: sample-mean of 64 samples (seed 3) at temperature 0.8"), r.out());
        List<String> lines = Files.readAllLines(out);
        assertEquals("mean,median,point,q0.05,q0.95,log_density", lines.get(0));
        double[] point = lines.stream().skip(1).mapToDouble(l -> Double.parseDouble(l.split(",")[2])).toArray();
        Dataset d = CsvLoader.load(csv, "y");
        RegressionModel model = RegressionModel.load(m);
        double[] expected = model.predictPoint(d.x(), d.featureNames(), Decoding.of(PointEstimate.SAMPLE_MEAN)
                .withSampling(0.8, 0, 1).withSamples(64, 3));
        assertArrayEquals(expected, point, 0.0);
        double[] plain = model.predictPoint(d.x(), d.featureNames(), Decoding.of(PointEstimate.SAMPLE_MEAN)
                .withSamples(64, 3));
        assertFalse(Arrays.equals(plain, point), "the temperature changes the samples");
        assertOneLineError(CliTestSupport.run("predict", "--model", m.toString(), "--data", csv.toString(),
                "--target", "y", "--out", out.toString(), "--temperature", "0.8"),
                "--temperature, --top-k, --top-p and --samples act on --point sample-mean or sample-median");
    }

    /**
     * A saved model's settings, printed by {@code regheads settings}, train the same model again with {@code
     * --config}; options given beside the file override it.
     */
    @Test
    void configRoundTripFromASavedModelsSettings() throws IOException {
        Path a = tmp.resolve("a.rgh");
        assertEquals(0, train("--head", "histogram", "-H", "bins=16", "--epochs", "2", "--batch-size", "32",
                "--encoder-width", "16", "--seed", "2", "--loss", "ce+0.3*ntl-was", "--save", a.toString()).exit());
        CliTestSupport.Run s = CliTestSupport.run("settings", "--model", a.toString());
        assertEquals(0, s.exit(), s.err());
        assertTrue(s.out().startsWith("encoder.layers=2\nencoder.width=16\nhead=histogram\nhead.version=1\n"
                + "head.bins=16\nhead.tails=false\nloss=ce+0.3*ntl-was\n"), s.out());
        Path file = tmp.resolve("a.properties");
        Files.writeString(file, s.out());
        Path b = tmp.resolve("b.rgh");
        CliTestSupport.Run again = train("--config", file.toString(), "--save", b.toString());
        assertEquals(0, again.exit(), again.err());
        assertEquals(saved(a), saved(b));
        assertEquals(s.out(), CliTestSupport.run("settings", "--model", b.toString()).out());
        double[][] x = CsvLoader.load(tmp.resolve("d.csv")).x();
        assertArrayEquals(RegressionModel.load(a).predict(x).mean(), RegressionModel.load(b).predict(x).mean(), 0.0,
                "same settings, data and seed in one process: the same model");
        Path c = tmp.resolve("c.rgh");
        assertEquals(0, train("--config", file.toString(), "-H", "tails=true", "--epochs", "1", "--save",
                c.toString()).exit());
        assertEquals(new HistogramSpec(16, true), saved(c).head());
        assertEquals(1, saved(c).trainer().maxEpochs());
        assertEquals(32, saved(c).trainer().batchSize());
    }

    @Test
    void badHeadOptionsAndTrainerValuesAreRefusedInOneLine() throws IOException {
        String save = tmp.resolve("x.rgh").toString();
        assertOneLineError(train("--head", "histogram", "-H", "bns=32", "--save", save),
                "-H bns=32: head.bns is not a known setting", "did you mean 'bins'?");
        assertOneLineError(train("--head", "histogram", "-H", "bins=1", "-H", "tails=true", "--save", save),
                "-H bins=1: head.bins must be >= 2, got 1");
        assertOneLineError(train("--head", "mdn", "-H", "components", "--save", save), "-H must be KEY=VALUE");
        assertOneLineError(train("--batch-size", "0", "--save", save), "--batch-size must be >= 1, got 0");
        assertOneLineError(train("--validation-share", "0.95", "--save", save),
                "--validation-share must be in [0.0, 0.9], got 0.95");
        assertOneLineError(train("--encoder-layers", "7", "--save", save), "--encoder-layers must be in [2, 5], got 7");
        assertOneLineError(train("--head", "histgram", "--save", save),
                "--head: unknown head 'histgram'; did you mean 'histogram'?");
        assertFalse(Files.exists(tmp.resolve("x.rgh")));
    }

    @Test
    void configFileKeysAreChecked() throws IOException {
        Path f = tmp.resolve("bad.properties");
        String save = tmp.resolve("x.rgh").toString();
        Files.writeString(f, "head=histogram\ntrainer.epochs=3\n");
        assertOneLineError(train("--config", f.toString(), "--save", save),
                "--config " + f + ": 'trainer.epochs' is not a model setting; did you mean 'trainer.maxEpochs'?");
        Files.writeString(f, "head=histgram\n");
        assertOneLineError(train("--config", f.toString(), "--save", save), "did you mean 'histogram'?");
        Files.writeString(f, "head=histogram\nhead.bins=0\n");
        assertOneLineError(train("--config", f.toString(), "--save", save),
                "--config " + f + ": head.bins must be >= 1, got 0");
    }

    /** With several heads an unqualified key goes to the heads that have it; HEAD.KEY to one head. */
    @Test
    void compareAppliesHeadOptionsByKeyOrByHead() {
        assertOneLineError(CliTestSupport.run("compare", "--heads", "histogram,mdn", "-H", "bns=3", "--quiet"),
                "-H bns=3: no head of histogram,mdn has a setting 'bns'; did you mean 'bins'?");
        assertOneLineError(CliTestSupport.run("compare", "--heads", "histogram,mdn", "-H", "mdn.bins=3", "--quiet"),
                "-H mdn.bins=3: head.bins is not a known setting");
        assertOneLineError(CliTestSupport.run("compare", "--heads", "mdn", "-H", "decoder.base=2", "--quiet"),
                "-H decoder.base=2: head decoder is not trained here (heads: mdn)");
    }

    @Test
    void settingsListsAHeadsKeys() {
        CliTestSupport.Run r = CliTestSupport.run("settings", "--head", "histogram", "-H", "bins=32");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("\nhead=histogram\nhead.version=1\nhead.bins=32\nhead.tails="), r.out());
        assertTrue(r.out().contains("\ntrainer.maxEpochs=300\ntrainer.patience=20\n"), r.out());
    }
}
