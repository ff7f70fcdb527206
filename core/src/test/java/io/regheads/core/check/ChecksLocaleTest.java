package io.regheads.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Messages read the same whatever the JVM's default locale (a German one writes 0,5 for 0.5 otherwise). */
class ChecksLocaleTest {
    @Test
    void messagesUseTheRootLocale() {
        Locale saved = Locale.getDefault();
        Locale.setDefault(Locale.GERMANY);
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Checks.require(false, "sigma must be > 0, got %.3g", 0.5));
            assertEquals("sigma must be > 0, got 0.500", e.getMessage());
        } finally {
            Locale.setDefault(saved);
        }
    }
}
