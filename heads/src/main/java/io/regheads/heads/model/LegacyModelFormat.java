package io.regheads.heads.model;

import io.regheads.core.head.HeadSpec;
import io.regheads.core.train.TrainerConfig;
import java.util.Properties;

/**
 * Reads the first metadata format of model files (written before heads wrote their own settings) by rewriting it
 * into the named keys of the current format, which the current readers then check.
 *
 * <p>The first format has no {@code version} key and holds positional lists: {@code head.decoder=base,length,d,
 * heads,ff,layers} (with {@code head.activation}, GELU when absent), {@code head.unnormalized=base,E,M,d,heads,ff,
 * layers}, {@code trainer=seed,batchSize,maxEpochs,learningRate,weightDecay,clipNorm,validationFraction,patience},
 * and the pointwise head's {@code head.noiseStd}. Example: {@code head.decoder=10,4,32,1,128,1} becomes {@code
 * head.version=1}, {@code head.base=10}, {@code head.length=4}, {@code head.d=32}, {@code head.heads=1}, {@code
 * head.ff=128}, {@code head.layers=1}, {@code head.activation=GELU}.
 *
 * <p>Stateless.
 */
final class LegacyModelFormat {
    private static final String[] DECODER = {"base", "length", "d", "heads", "ff", "layers"};
    private static final String[] UNNORMALIZED = {"base", "exponentDigits", "mantissaDigits", "d", "heads", "ff",
        "layers"};
    private static final String[] TRAINER = {"seed", "batchSize", "maxEpochs", "learningRate", "weightDecay",
        "clipNorm", "validationFraction", "patience"};

    private LegacyModelFormat() {}

    /**
     * The same model in current keys ({@code version = RegressionModel}'s format version); {@code old} is not
     * changed. Heads other than the five of the first format are left as they are (the registry then refuses them).
     *
     * @throws IllegalArgumentException naming a positional key that is missing or has the wrong number of fields
     */
    static Properties upgrade(Properties old, int version) {
        Properties p = new Properties();
        p.putAll(old);
        p.setProperty("version", Integer.toString(version));
        String head = p.getProperty(HeadSpec.KEY, "").trim();
        if (head.equals("pointwise") || head.equals("histogram") || head.equals("mdn")) {
            p.setProperty(HeadSpec.PREFIX + "version", "1");
        } else if (head.equals("decoder")) {
            spread(p, HeadSpec.PREFIX + "decoder", HeadSpec.PREFIX, DECODER);
            p.setProperty(HeadSpec.PREFIX + "activation", p.getProperty(HeadSpec.PREFIX + "activation", "GELU"));
            p.setProperty(HeadSpec.PREFIX + "version", "1");
        } else if (head.equals("unnormalized-decoder")) {
            spread(p, HeadSpec.PREFIX + "unnormalized", HeadSpec.PREFIX, UNNORMALIZED);
            p.setProperty(HeadSpec.PREFIX + "version", "1");
        }
        String noise = (String) p.remove(HeadSpec.PREFIX + "noiseStd");
        if (noise != null) {
            p.setProperty(RegressionModel.STATE_PREFIX + "noiseStd", noise);
        }
        spread(p, "trainer", TrainerConfig.PREFIX, TRAINER);
        return p;
    }

    /** Replaces the list under {@code key} by one key per field, {@code prefix + names[i]}. */
    private static void spread(Properties p, String key, String prefix, String[] names) {
        String list = (String) p.remove(key);
        if (list == null) {
            throw new IllegalArgumentException(key + " is missing");
        }
        String[] v = list.split(",", -1);
        if (v.length != names.length) {
            throw new IllegalArgumentException(key + " must hold " + names.length + " comma-separated values ("
                    + String.join(",", names) + "), got '" + list + "'");
        }
        for (int i = 0; i < names.length; i++) {
            p.setProperty(prefix + names[i], v[i].trim());
        }
    }
}
