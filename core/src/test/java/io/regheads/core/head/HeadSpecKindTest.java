package io.regheads.core.head;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.regheads.core.io.Settings;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The spec skeleton's first reading step: the head's name, the version range and the known keys, by name. */
class HeadSpecKindTest {

    private static final HeadSpec.Kind KIND = new HeadSpec.Kind("histogram", 2);

    private static Properties table(String head, String version) {
        Properties p = new Properties();
        p.setProperty("head", head);
        p.setProperty("head.version", version);
        p.setProperty("head.bins", "16");
        return p;
    }

    private static String refusal(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void readChecksTheHeadTheVersionAndTheKeys() {
        Settings s = KIND.read(table(" histogram ", "2"), "bins", "tails");
        assertEquals(16, s.integer("bins"));
        assertEquals(1, KIND.read(table("histogram", "1"), "bins").version(KIND.version()));
        assertEquals("head must be histogram for this reader, got 'mdn'", refusal(() -> KIND.read(table("mdn", "1"))));
        assertEquals("head.version must be in [1, 2] (the newest this library reads), got 3",
                refusal(() -> KIND.read(table("histogram", "3"), "bins")));
        assertEquals("head.bins is not a known setting; known under 'head.': [tails, version]",
                refusal(() -> KIND.read(table("histogram", "1"), "tails")));
        Properties none = table("histogram", "1");
        none.remove("head");
        assertEquals("head is missing", refusal(() -> KIND.settingsOf(none)));
    }

    @Test
    void aKindHasANameAndAVersionOfAtLeastOne() {
        assertEquals("name must be non-blank without surrounding spaces, got ' mdn'",
                refusal(() -> new HeadSpec.Kind(" mdn", 1)));
        assertEquals("version must be >= 1, got 0", refusal(() -> new HeadSpec.Kind("mdn", 0)));
    }
}
