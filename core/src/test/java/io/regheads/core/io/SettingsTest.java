package io.regheads.core.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.check.Checks;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.train.TrainerConfig;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class SettingsTest {

    private static Properties table() {
        Properties p = new Properties();
        p.setProperty("head.bins", " 256 ");
        p.setProperty("head.tails", "TRUE");
        p.setProperty("head.rate", "1.0E-4");
        p.setProperty("head.seed", "-9007199254740993"); // below -2^53: exact only as a long
        p.setProperty("head.activation", "RELU");
        p.setProperty("head.version", "1");
        p.setProperty("other", "x");
        return p;
    }

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void readsTypedValuesUnderThePrefix() {
        Settings s = Settings.of(table(), "head.");
        assertEquals("head.bins", s.key("bins"));
        assertEquals(256, s.integer("bins"));
        assertTrue(s.bool("tails"));
        assertEquals(1e-4, s.real("rate"), 0.0);
        assertEquals(-9007199254740993L, s.longInteger("seed"));
        assertEquals(TransformerBlock.Activation.RELU, s.choice("activation", TransformerBlock.Activation.class));
        assertEquals(1, s.version(1));
        assertTrue(s.has("bins"));
        assertFalse(s.has("other"));
        assertEquals("x", Settings.of(table(), "").string("other"));
    }

    @Test
    void refusalsNameTheKey() {
        Properties p = table();
        p.setProperty("head.bins", "2.5");
        p.setProperty("head.rate", "Infinity");
        p.setProperty("head.tails", "yes");
        p.setProperty("head.version", "3");
        Settings s = Settings.of(p, "head.");
        assertEquals("head.bins must be an integer, got '2.5'", refusal(() -> s.integer("bins")));
        assertEquals("head.rate must be a finite number, got 'Infinity'", refusal(() -> s.real("rate")));
        assertEquals("head.tails must be true or false, got 'yes'", refusal(() -> s.bool("tails")));
        assertEquals("head.missing is missing", refusal(() -> s.string("missing")));
        assertEquals("head.version must be in [1, 2] (the newest this library reads), got 3", refusal(() -> s.version(2)));
        Properties q = table();
        q.setProperty("head.activation", "relu"); // constant names are exact
        assertEquals("head.activation must be one of [GELU, RELU], got 'relu'",
                refusal(() -> Settings.of(q, "head.").choice("activation", TransformerBlock.Activation.class)));
        assertEquals("head.rate is not a known setting; known under 'head.': [activation, bins, seed, tails, version]",
                refusal(() -> Settings.of(table(), "head.").requireOnly("bins", "tails", "seed", "activation", "version")));
        assertEquals("head.bins must be >= 300, got 256", refusal(() -> Settings.of(table(), "head.")
                .validated(() -> Checks.atLeast("bins", 256, 300))));
        assertEquals("prefix must be empty or end in '.', got 'head'", refusal(() -> Settings.of(table(), "head")));
    }

    @Test
    void writerWritesWhatTheReadersReadBack() {
        java.util.Map<String, String> m = Settings.writer().put("bins", 256).put("tails", true).put("rate", 1e-4)
                .put("floor", 0.1 + 0.2).put("activation", TransformerBlock.Activation.RELU).map();
        assertEquals(java.util.List.of("bins", "tails", "rate", "floor", "activation"), java.util.List.copyOf(m.keySet()));
        assertEquals("256", m.get("bins"));
        assertEquals("1.0E-4", m.get("rate"));
        Properties p = new Properties();
        m.forEach((k, v) -> p.setProperty("head." + k, v));
        Settings s = Settings.of(p, "head.");
        assertEquals(256, s.integer("bins"));
        assertTrue(s.bool("tails"));
        assertEquals(0.1 + 0.2, s.real("floor"), 0.0); // 0.30000000000000004: exact round trip
        assertEquals(TransformerBlock.Activation.RELU, s.choice("activation", TransformerBlock.Activation.class));
        assertThrows(UnsupportedOperationException.class, () -> m.put("x", "y"));
        assertEquals("rate must be a finite number, got NaN", refusal(() -> Settings.writer().put("rate", Double.NaN)));
        assertEquals("bins is already set", refusal(() -> Settings.writer().put("bins", 1).put("bins", 2)));
    }

    @Test
    void trainerSettingsRoundTripAsNamedKeys() {
        TrainerConfig t = new TrainerConfig(-7, 33, 12, 3e-4, 0.01, 1.5, 0.25, 3);
        Properties p = t.toProperties();
        assertEquals("33", p.getProperty("trainer.batchSize"));
        assertEquals("3.0E-4", p.getProperty("trainer.learningRate"));
        assertEquals(8, p.size());
        assertEquals(t, TrainerConfig.of(p));
        p.setProperty("trainer.validationFraction", "0.95");
        assertEquals("trainer.validationFraction must be in [0.0, 0.9], got 0.95", refusal(() -> TrainerConfig.of(p)));
        p.remove("trainer.patience");
        assertEquals("trainer.patience is missing", refusal(() -> TrainerConfig.of(p)));
    }
}
