package io.regheads.app.arith;

import io.regheads.core.data.Dataset;
import io.regheads.core.head.PointEstimate;
import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.ProgressListener;
import io.regheads.core.train.Trainer;
import io.regheads.core.train.TrainerConfig;
import io.regheads.core.train.TrainingResult;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.app.arith.ArithmeticTask.Example;
import io.regheads.app.arith.ArithmeticTask.Split;
import io.regheads.heads.text.SequenceEncoder;
import io.regheads.heads.text.SequenceEncoderConfig.NumberEmbedding;
import io.regheads.heads.text.SequenceEncoderConfig;
import io.regheads.heads.text.SequenceModel;
import io.regheads.heads.xval.XValHead;
import io.regheads.heads.xval.XValSpec;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import io.regheads.tokenizers.text.CharVocabulary;
import io.regheads.tokenizers.text.ChartonScheme;
import io.regheads.tokenizers.text.TextNumberCodec;
import io.regheads.tokenizers.text.XValCodec;
import io.regheads.tokenizers.text.XValEncoding;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.Locale;
import org.nd4j.linalg.api.buffer.DataType;

/**
 * The arithmetic showdown: the same {@link SequenceEncoder} trunk under different number encodings and output heads,
 * on {@link ArithmeticTask} data, scored in and out of distribution.
 *
 * <p>Variants ({@link Variant}):
 * <ul>
 *   <li>{@code XVAL}: xVal input embedding (operands multiplied by {@code xvalInputScale} to stay in the range
 *       where the first layer norm is near-linear) + {@link XValHead}, MSE on standardised y;</li>
 *   <li>{@code XVAL_MULTISCALE}: the multi-scale xVal embedding {@code sum_{i=-2..2} tanh(x 10^i) [NUM_i]} on the
 *       raw operands (no input scale: the tanh saturates instead of the layer norm) + the same head and loss;</li>
 *   <li>{@code CE}, {@code CE_NTL_WAS} (CE + 0.3 NTL-WAS), {@code CE_NTL_MSE} (CE + 0.3 NTL-MSE), {@code GCE}
 *       (Gaussian CE, sigma {@code gceSigma} in digit units): text tokens in (the Charton scheme for expressions,
 *       plain characters, i.e. digit-level, for multiplication) + {@link DecoderHead} over unnormalized tokens
 *       ({@code sign, exponent sign, exponent digit, 3 mantissa digits} for expressions, 8 mantissa digits for the
 *       exact products), predicted by greedy decoding.</li>
 * </ul>
 * Metrics on each test set ({@link Metrics}): R^2 {@code = 1 - SS_res / SS_tot}, MAE, exact-match rate (prediction
 * rounded to 3 significant digits, or to an integer for products, equals the label), MAPE in percent over non-zero
 * labels.
 *
 * <p>Every model trains with {@link Trainer} (AdamW without decay, gradient clipping at norm 1, 10% validation,
 * best-validation weights kept, no early stop before {@code epochs}), FLOAT parameters, seeded: a run is
 * reproducible on one machine.
 *
 * <p>Stateless; {@link #run} is not meant for concurrent calls on shared listeners.
 */
public final class ArithmeticBenchmark {

    /** Which task. */
    public enum Task {
        /** xVal paper: 2-4 operand expressions. */
        EXPRESSIONS,
        /** NTL paper: multiplication, 1-3 digit factors in training, a 4-digit factor out of distribution. */
        MULTIPLICATION
    }

    /** Encoder input + head + loss. */
    public enum Variant {
        XVAL, CE, CE_NTL_WAS, CE_NTL_MSE, GCE, XVAL_MULTISCALE;

        /** Whether numbers enter through an xVal embedding and leave through the {@link XValHead}. */
        public boolean isXVal() {
            return this == XVAL || this == XVAL_MULTISCALE;
        }
    }

    /** k of the multi-scale variant: scales 10^-2 .. 10^2 cover the operands (1.00-9.99) and their products. */
    static final int MULTISCALE_K = 2;

    /**
     * Benchmark sizes.
     *
     * @param task           which task
     * @param trainSize      training examples (10% become validation), >= 20
     * @param testSize       examples per test set, >= 1
     * @param epochs         training epochs, >= 1
     * @param width          encoder and decoder width d (2 heads, MLP 4 d), even, >= 2
     * @param layers         encoder blocks, >= 1 (the decoder has 1)
     * @param batchSize      >= 1
     * @param learningRate   > 0
     * @param scheme         text encoding of the operands for the token variants (expressions)
     * @param xvalInputScale factor applied to the numbers entering the xVal embedding, > 0
     * @param gceSigma       GCE width in token-value (digit) units, > 0
     * @param minOperands    in [2, 4]
     * @param maxOperands    in [minOperands, 4]
     * @param seed           data, initialisation and shuffling seed
     */
    public record Config(Task task, int trainSize, int testSize, int epochs, int width, int layers, int batchSize,
            double learningRate, ChartonScheme scheme, double xvalInputScale, double gceSigma, int minOperands,
            int maxOperands, long seed) {

        /** @throws IllegalArgumentException on a field out of range */
        public Config {
            Checks.notNull("task", task);
            Checks.atLeast("trainSize", trainSize, 20);
            Checks.atLeast("testSize", testSize, 1);
            Checks.atLeast("epochs", epochs, 1);
            Checks.atLeast("width", width, 2);
            Checks.require(width % 2 == 0, "width must be even (2 heads), got %d", width);
            Checks.atLeast("layers", layers, 1);
            Checks.atLeast("batchSize", batchSize, 1);
            Checks.positive("learningRate", learningRate);
            Checks.notNull("scheme", scheme);
            Checks.positive("xvalInputScale", xvalInputScale);
            Checks.positive("gceSigma", gceSigma);
            Checks.inRange("minOperands", minOperands, 2, 4);
            Checks.inRange("maxOperands", maxOperands, minOperands, 4);
        }

        /** Expressions: 2-4 operands, P10, d 32, 2 layers, batch 64, lr 1e-3, xVal inputs / 5, GCE sigma 0.5. */
        public static Config expressions(int trainSize, int testSize, int epochs, long seed) {
            return new Config(Task.EXPRESSIONS, trainSize, testSize, epochs, 32, 2, 64, 1e-3, ChartonScheme.P10, 0.2,
                    0.5, 2, 4, seed);
        }

        /** Multiplication, otherwise as {@link #expressions}. */
        public static Config multiplication(int trainSize, int testSize, int epochs, long seed) {
            return new Config(Task.MULTIPLICATION, trainSize, testSize, epochs, 32, 2, 64, 1e-3, ChartonScheme.P10,
                    0.2, 0.5, 2, 4, seed);
        }
    }

    /**
     * Scores on one test set.
     *
     * @param r2    1 - SS_res / SS_tot
     * @param mae   mean absolute error
     * @param exact share of exact matches, in [0, 1]
     * @param mape  mean absolute percentage error over non-zero labels, in percent
     * @param count test examples
     */
    public record Metrics(double r2, double mae, double exact, double mape, int count) {}

    /**
     * One variant's outcome.
     *
     * @param variant  which model
     * @param encoding input encoding name
     * @param in       in-distribution test scores
     * @param out      out-of-distribution test scores
     * @param training the trainer's summary
     * @param seconds  wall time of training and scoring
     */
    public record Result(Variant variant, String encoding, Metrics in, Metrics out, TrainingResult training,
            double seconds) {}

    private ArithmeticBenchmark() {}

    /**
     * Generates the data once and trains and scores each variant on it.
     *
     * @throws IllegalArgumentException if a variant does not apply to the task (XVAL on multiplication, which the
     *                                  NTL paper runs with token losses only) or the list is empty
     */
    public static List<Result> run(Config config, List<Variant> variants, ProgressListener listener) {
        Checks.notNull("config", config);
        Checks.notNull("variants", variants);
        Checks.require(!variants.isEmpty(), "variants must not be empty, got 0");
        Checks.notNull("listener", listener);
        boolean expr = config.task() == Task.EXPRESSIONS;
        for (Variant v : variants) {
            Checks.require(expr || !v.isXVal(), "variant %s applies to EXPRESSIONS only, got task %s", v,
                    config.task());
        }
        List<Example> train = data(config, Split.TRAIN, config.trainSize(), Set.of());
        Set<String> seen = train.stream().map(Example::text).collect(Collectors.toSet());
        List<Example> testIn = data(config, Split.TEST_IN, config.testSize(), seen); // no training problem in a test
        List<Example> testOut = data(config, Split.TEST_OUT, config.testSize(), seen);
        List<Result> results = new ArrayList<>();
        for (Variant v : variants) {
            long start = System.nanoTime();
            Encoded tr = encode(config, v, train);
            Encoded in = encode(config, v, testIn);
            Encoded out = encode(config, v, testOut);
            int maxLength = Math.max(tr.length, Math.max(in.length, out.length));
            SequenceModel model = model(config, v, tr.vocabulary, maxLength, labels(train));
            Dataset ds = Dataset.of(rows(tr, maxLength), labels(train));
            TrainerConfig tc = new TrainerConfig(config.seed(), config.batchSize(), config.epochs(),
                    config.learningRate(), 0.0, 1.0, 0.1, config.epochs());
            TrainingResult r = new Trainer(tc, listener).fit(model, ds);
            Metrics mi = metrics(labels(testIn), model.predict(rows(in, maxLength)), config.task());
            Metrics mo = metrics(labels(testOut), model.predict(rows(out, maxLength)), config.task());
            String input = v == Variant.XVAL ? "xVal" : v == Variant.XVAL_MULTISCALE ? "xVal multi-scale"
                    : expr ? config.scheme().name() : "digits";
            results.add(new Result(v, input, mi, mo, r, (System.nanoTime() - start) / 1e9));
        }
        return results;
    }

    static List<Example> data(Config c, Split split, int n, Set<String> exclude) {
        return c.task() == Task.EXPRESSIONS ? ArithmeticTask.expressions(n, split, c.minOperands(), c.maxOperands(),
                c.seed(), exclude) : ArithmeticTask.multiplications(n, split, c.seed(), exclude);
    }

    static double[] labels(List<Example> examples) {
        double[] y = new double[examples.size()];
        for (int i = 0; i < y.length; i++) {
            y[i] = examples.get(i).value();
        }
        return y;
    }

    /** Sequences of one encoding, with the vocabulary size and the longest length. */
    private record Encoded(List<int[]> tokens, List<double[]> numbers, int vocabulary, int length) {}

    private static Encoded encode(Config c, Variant v, List<Example> examples) {
        List<int[]> tok = new ArrayList<>(examples.size());
        List<double[]> num = new ArrayList<>(examples.size());
        int vocabulary;
        if (v.isXVal()) {
            vocabulary = CharVocabulary.SIZE;
            double scale = v == Variant.XVAL ? c.xvalInputScale() : 1.0;
            for (Example e : examples) {
                XValEncoding x = XValCodec.encode(e.text());
                double[] n = x.numberInputs();
                int[] t = x.tokens();
                for (int i = 0; i < n.length; i++) {
                    if (t[i] == CharVocabulary.NUM) {
                        n[i] *= scale;
                    }
                }
                tok.add(t);
                num.add(n);
            }
        } else if (c.task() == Task.EXPRESSIONS) {
            TextNumberCodec codec = new TextNumberCodec(c.scheme());
            vocabulary = codec.vocabularySize();
            for (Example e : examples) {
                tok.add(codec.encode(e.text()));
                num.add(null);
            }
        } else {
            vocabulary = CharVocabulary.SIZE;
            for (Example e : examples) {
                int[] t = new int[e.text().length()];
                for (int i = 0; i < t.length; i++) {
                    t[i] = CharVocabulary.id(e.text().charAt(i));
                }
                tok.add(t);
                num.add(null);
            }
        }
        int length = 0;
        for (int[] t : tok) {
            length = Math.max(length, t.length);
        }
        return new Encoded(tok, num, vocabulary, length);
    }

    private static double[][] rows(Encoded e, int length) {
        double[][] r = new double[e.tokens.size()][2 * length];
        for (int i = 0; i < r.length; i++) {
            int[] t = e.tokens.get(i);
            double[] n = e.numbers.get(i);
            java.util.Arrays.fill(r[i], length, 2 * length, 1.0);
            for (int u = 0; u < t.length; u++) {
                r[i][u] = t[u];
                r[i][length + u] = n == null ? 1.0 : n[u];
            }
        }
        return r;
    }

    private static SequenceModel model(Config c, Variant v, int vocabulary, int maxLength, double[] yTrain) {
        TransformerBlock.Config block = new TransformerBlock.Config(c.width(), 2, 4 * c.width());
        SequenceEncoder enc = new SequenceEncoder(new SequenceEncoderConfig(vocabulary, maxLength, block, c.layers(),
                v == Variant.XVAL ? NumberEmbedding.XVAL
                        : v == Variant.XVAL_MULTISCALE ? NumberEmbedding.XVAL_MULTISCALE : NumberEmbedding.NONE,
                CharVocabulary.NUM, v == Variant.XVAL_MULTISCALE ? MULTISCALE_K : 0, c.seed()),
                DataType.FLOAT);
        if (v.isXVal()) {
            double mean = 0;
            for (double y : yTrain) {
                mean += y / yTrain.length;
            }
            double var = 0;
            for (double y : yTrain) {
                var += (y - mean) * (y - mean) / yTrain.length;
            }
            XValHead head = XValSpec.paper(c.width()).build(c.width(), c.seed() + 1, DataType.FLOAT);
            // the xVal head's prediction (its mean)
            return new SequenceModel(enc, head, Losses.ce(), mean, Math.sqrt(var) > 0 ? Math.sqrt(var) : 1.0,
                    PointEstimate.MEAN);
        }
        UnnormalizedTokenizer tok = UnnormalizedTokenizer.of(10, 1, c.task() == Task.EXPRESSIONS ? 3 : 8);
        DecoderHead head = new DecoderHead(tok, c.width(), block, 1, c.seed() + 1, DataType.FLOAT);
        return new SequenceModel(enc, head, loss(c, v), 0, 1, PointEstimate.GREEDY); // greedy decoding
    }

    /** The training loss of a token variant. */
    static Loss loss(Config c, Variant v) {
        switch (v) {
            case CE:
                return Losses.ce();
            case CE_NTL_WAS:
                return Losses.ce().plus(0.3, Losses.ntlWas());
            case CE_NTL_MSE:
                return Losses.ce().plus(0.3, Losses.ntlMse());
            case GCE:
                return Losses.gce(c.gceSigma());
            default:
                throw new IllegalArgumentException("variant must be a token variant, got " + v);
        }
    }

    /**
     * Scores predictions.
     *
     * @throws IllegalArgumentException if the arrays differ in length or are empty
     */
    public static Metrics metrics(double[] y, double[] pred, Task task) {
        Checks.require(y.length == pred.length && y.length > 0, "y and pred must have the same length > 0, got %d and %d",
                y.length, pred.length);
        double mean = 0;
        for (double v : y) {
            mean += v / y.length;
        }
        double ssRes = 0;
        double ssTot = 0;
        double mae = 0;
        double exact = 0;
        double mape = 0;
        int nonZero = 0;
        for (int i = 0; i < y.length; i++) {
            double p = Double.isFinite(pred[i]) ? pred[i] : Double.MAX_VALUE / 1e10; // a non-finite prediction counts as a huge miss
            ssRes += (p - y[i]) * (p - y[i]);
            ssTot += (y[i] - mean) * (y[i] - mean);
            mae += Math.abs(p - y[i]) / y.length;
            double rounded = task == Task.EXPRESSIONS ? ArithmeticTask.round3(p) : Math.rint(p);
            if (rounded == y[i]) {
                exact++;
            }
            if (y[i] != 0) {
                mape += Math.abs((p - y[i]) / y[i]);
                nonZero++;
            }
        }
        return new Metrics(ssTot > 0 ? 1 - ssRes / ssTot : Double.NaN, mae, exact / y.length,
                nonZero > 0 ? 100 * mape / nonZero : Double.NaN, y.length);
    }

    /** One table row: variant, encoding, then R^2, MAE, exact %, MAPE % in and out of distribution. */
    public static String format(Result r) {
        return String.format(Locale.ROOT, "%-15s %-16s | %9.4f %10.4g %7.1f %9.2f | %9.4f %10.4g %7.1f %9.2f | %4d %6.0f",
                r.variant(), r.encoding(), r.in().r2(), r.in().mae(), 100 * r.in().exact(), r.in().mape(),
                r.out().r2(), r.out().mae(), 100 * r.out().exact(), r.out().mape(), r.training().epochsRun(),
                r.seconds());
    }

    /** The header of {@link #format}. */
    public static String header() {
        return String.format(Locale.ROOT, "%-15s %-16s | %9s %10s %7s %9s | %9s %10s %7s %9s | %4s %6s", "variant",
                "input", "R2 in", "MAE in", "exact%", "MAPE% in", "R2 out", "MAE out", "exact%", "MAPE%out", "ep",
                "sec");
    }
}
