package io.regheads.app.cli;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.check.Checks;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.decoder.DecoderSpec;
import io.regheads.heads.histogram.HistogramSpec;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.pointwise.PointwiseSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * One question of {@code regheads defaults}: a few candidate settings ({@link Arm}s) of one knob, for one or more
 * heads, every other setting fixed at the value the study names. The studies are coordinate-wise: each fixes the
 * knobs decided before it at their chosen values ({@link #all()} lists them in that order).
 *
 * <p>Every arm carries its whole configuration (head spec, loss, trainer), so two studies that train the same
 * configuration share one fit ({@link Arm#key}).
 *
 * @param name     short name for {@code --studies} and the report, lower case, no commas
 * @param question what the study decides, one line
 * @param arms     the candidates; arms of the same head are ranked against each other
 */
record DefaultsStudy(String name, String question, List<Arm> arms) {

    /**
     * One candidate: a head with its settings, a loss and trainer settings.
     *
     * @param head    the group the arm is ranked in: a head name, or several heads ranked against each other
     * @param label   the candidate's label in the report, no spaces or {@code |}
     * @param spec    makes the head spec
     * @param loss    loss expression ({@code null}: the spec's default loss)
     * @param trainer trainer settings; the command replaces the seed and caps the epochs
     */
    record Arm(String head, String label, Supplier<HeadSpec> spec, String loss, TrainerConfig trainer) {
        /** Validates the names. */
        Arm {
            Checks.require(label != null && !label.isBlank() && !label.contains(" ") && !label.contains("|"),
                    "arm label must be non-blank without spaces or '|', got '%s'", label);
            Checks.notNull("head", head);
            Checks.notNull("spec", spec);
            Checks.notNull("trainer", trainer);
            if (loss == null) {
                loss = spec.get().defaultLoss();
            }
        }

        /** The trainer this arm trains with: its own settings with {@code seed} and at most {@code epochs}. */
        TrainerConfig trainer(long seed, int epochs) {
            return trainer.withSeed(seed).withMaxEpochs(Math.min(epochs, trainer.maxEpochs()));
        }

        /**
         * {@code dataset|fold|settings|loss|trainer} (the settings name the head kind): equal for equal fits, whatever
         * study, group or label asks for them.
         */
        String key(String dataset, int fold, long seed, int epochs) {
            Map<String, String> sorted = new TreeMap<>();
            spec.get().toProperties().forEach((k, v) -> sorted.put(k.toString(), v.toString()));
            return dataset + "|" + fold + "|" + sorted + "|" + loss + "|" + trainer(seed, epochs);
        }
    }

    /** Validates the name and the arms (labels unique per head). */
    DefaultsStudy {
        Checks.require(name != null && name.matches("[a-z0-9-]+"), "study name must be lower case, got '%s'", name);
        Checks.notNull("question", question);
        Checks.require(arms != null && !arms.isEmpty(), "study %s has no arms", name);
        for (String h : heads(arms)) {
            List<String> labels = arms.stream().filter(a -> a.head().equals(h)).map(Arm::label).toList();
            Checks.require(labels.stream().distinct().count() == labels.size(),
                    "study %s: the arms of head %s need distinct labels, got %s", name, h, labels);
        }
        arms = List.copyOf(arms);
    }

    /** The heads of the study, in the order of their first arm. */
    List<String> heads() {
        return heads(arms);
    }

    private static List<String> heads(List<Arm> arms) {
        return arms.stream().map(Arm::head).distinct().toList();
    }

    /** The arms of head {@code head}, in study order. */
    List<Arm> arms(String head) {
        return arms.stream().filter(a -> a.head().equals(head)).toList();
    }

    /** Learning rate of every study but the MDN's optimizer study: the library's default, Adam 1e-3. */
    static final double LEARNING_RATE = 1e-3;
    /** The patience of the studies after the patience study: the value it chose. */
    static final int PATIENCE = 20;

    /** The trainer of the studies: batch 128, lr 1e-3, no weight decay, no clipping, 10% validation, {@code patience}. */
    static TrainerConfig trainer(int patience) {
        return new TrainerConfig(0L, 128, 300, LEARNING_RATE, 0.0, 0.0, 0.1, patience);
    }

    /**
     * The studies, in the order they were decided: patience (pointwise, histogram, MDN), the histogram's loss, its
     * bins and tails, the normalized decoder's loss, the MDN's learning rate and clipping, weight decay; then the heads
     * against each other with the chosen settings.
     */
    static List<DefaultsStudy> all() {
        List<DefaultsStudy> s = new ArrayList<>();
        Supplier<HeadSpec> pointwise = () -> new PointwiseSpec(false);
        Supplier<HeadSpec> histogramCe = () -> new HistogramSpec(100, true);
        Supplier<HeadSpec> mdn = () -> new MixtureSpec(10);

        List<Arm> patience = new ArrayList<>();
        for (int p : new int[] {5, 10, 20}) {
            patience.add(new Arm("pointwise", "patience=" + p, pointwise, null, trainer(p)));
            patience.add(new Arm("histogram", "patience=" + p, histogramCe, "ce", trainer(p)));
            patience.add(new Arm("mdn", "patience=" + p, mdn, null, trainer(p)));
        }
        s.add(new DefaultsStudy("patience", "early-stopping patience, shared by every head (lr 1e-3, histogram 100 bins "
                + "with tails and ce, MDN 10 components)", patience));

        List<Arm> histLoss = new ArrayList<>();
        for (String loss : new String[] {"ce", "gce:0.0075", "gce:0.02", "gce:0.05", "gce:0.1"}) {
            histLoss.add(new Arm("histogram", loss, histogramCe, loss, trainer(PATIENCE)));
        }
        s.add(new DefaultsStudy("histogram-loss", "the histogram's loss: ce or Gaussian-smoothed targets gce:SIGMA "
                + "(SIGMA in units of the min-max scaled target; 100 bins with tails)", histLoss));

        String histChosen = HISTOGRAM_LOSS;
        List<Arm> bins = new ArrayList<>();
        bins.add(new Arm("histogram", "bins=100,no-tails", () -> new HistogramSpec(100, false), histChosen,
                trainer(PATIENCE)));
        for (int b : new int[] {32, 100, 256}) {
            bins.add(new Arm("histogram", "bins=" + b + ",tails", () -> new HistogramSpec(b, true), histChosen,
                    trainer(PATIENCE)));
        }
        s.add(new DefaultsStudy("histogram-bins", "the histogram's bins and tails (loss " + histChosen + ")", bins));

        List<Arm> decoder = new ArrayList<>();
        for (String loss : new String[] {"ce", "gce:0.5", "gce:1"}) {
            decoder.add(new Arm("decoder", loss, () -> DecoderSpec.small(10, 3), loss, trainer(PATIENCE)));
        }
        s.add(new DefaultsStudy("decoder-loss", "the normalized decoder's loss: ce or gce:SIGMA (SIGMA in digits; "
                + "base 10, 3 digits)", decoder));

        List<Arm> mdnOpt = new ArrayList<>();
        for (double lr : new double[] {1e-3, 3e-4}) {
            for (double clip : new double[] {0, 1}) {
                mdnOpt.add(new Arm("mdn", String.format(Locale.ROOT, "lr=%s,clip=%s", num(lr), num(clip)), mdn, null,
                        trainer(PATIENCE).withLearningRate(lr).withClipNorm(clip)));
            }
        }
        s.add(new DefaultsStudy("mdn-optimizer", "the MDN's learning rate and gradient clipping (clipNorm, 0: none)",
                mdnOpt));

        List<Arm> decay = new ArrayList<>();
        for (double wd : new double[] {0, 1e-2, 1e-1}) {
            decay.add(new Arm("pointwise", "wd=" + num(wd), pointwise, null, trainer(PATIENCE).withWeightDecay(wd)));
            decay.add(new Arm("histogram", "wd=" + num(wd), () -> new HistogramSpec(100, true), histChosen,
                    trainer(PATIENCE).withWeightDecay(wd)));
            decay.add(new Arm("mdn", "wd=" + num(wd), mdn, null, trainer(PATIENCE).withWeightDecay(wd)));
        }
        s.add(new DefaultsStudy("weight-decay", "AdamW's decoupled weight decay, shared by every head", decay));

        // the heads against each other with the settings chosen above (no choice is made here)
        List<Arm> heads = new ArrayList<>();
        heads.add(new Arm("heads", "pointwise", pointwise, null, trainer(PATIENCE)));
        heads.add(new Arm("heads", "histogram", () -> new HistogramSpec(HISTOGRAM_BINS, HISTOGRAM_TAILS), histChosen,
                trainer(PATIENCE)));
        heads.add(new Arm("heads", "mdn", mdn, null, trainer(PATIENCE)));
        s.add(new DefaultsStudy("heads", "the pointwise, histogram and mixture density heads against each other, each "
                + "with the settings chosen above", heads));
        List<Arm> withDecoder = new ArrayList<>(heads);
        withDecoder.add(new Arm("heads", "decoder", () -> DecoderSpec.small(10, 3), DECODER_LOSS, trainer(PATIENCE)));
        s.add(new DefaultsStudy("heads-decoder", "as heads, with the normalized decoder (on the units where it ran)",
                withDecoder));
        return s;
    }

    /** The histogram's bins the histogram-bins study chose. */
    static final int HISTOGRAM_BINS = 256;
    /** Whether the histogram-bins study chose half-normal tails. */
    static final boolean HISTOGRAM_TAILS = true;
    /** The normalized decoder's loss the decoder-loss study chose. */
    static final String DECODER_LOSS = "gce:0.5";

    /** The histogram loss the histogram-loss study chose, used by the studies after it. */
    static final String HISTOGRAM_LOSS = "gce:0.05";

    /**
     * The studies named in a comma-separated list ({@code null}, blank or {@code all}: every study), in {@link #all()}
     * order.
     *
     * @throws IllegalArgumentException on an unknown name
     */
    static List<DefaultsStudy> select(String list) {
        List<DefaultsStudy> all = all();
        if (list == null || list.isBlank() || list.strip().equals("all")) {
            return all;
        }
        List<String> names = new ArrayList<>();
        for (String raw : list.split(",")) {
            String n = raw.strip();
            Checks.require(all.stream().anyMatch(st -> st.name().equals(n)), "--studies: unknown study '%s'; known "
                    + "studies are %s", n, String.join(", ", all.stream().map(DefaultsStudy::name).toList()));
            names.add(n);
        }
        return all.stream().filter(st -> names.contains(st.name())).toList();
    }

    /** A number as short text: 0.001 as 1e-3, 0 as 0, 1 as 1. */
    static String num(double v) {
        if (v == 0 || (Math.abs(v) >= 0.01 && Math.abs(v) < 1000)) {
            String s = Double.toString(v);
            return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
        }
        return String.format(Locale.ROOT, "%.0e", v).replace("e-0", "e-").replace("e+0", "e");
    }
}
