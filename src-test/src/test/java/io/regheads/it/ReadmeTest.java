package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's POM and first library example are the ones {@code consumer-it} builds ({@code src/it/readme}: the
 * POM unchanged, the example inside {@code Quickstart.java}), so what a newcomer copies compiles on Maven's
 * defaults against the installed artifacts.
 */
class ReadmeTest {
    private static final Path ROOT = Path.of("..");

    private static String block(String readme, String language) {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)\n```", Pattern.DOTALL).matcher(readme);
        assertTrue(m.find(), "README has a ```" + language + " block");
        return m.group(1);
    }

    @Test
    void theReadmesPomIsTheOneConsumerItBuilds() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String pom = Files.readString(ROOT.resolve("consumer-it/src/it/readme/pom.xml"));
        assertEquals(block(readme, "xml") + "\n", pom);
    }

    @Test
    void theReadmesExampleIsTheOneConsumerItCompiles() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        String java = Files.readString(ROOT.resolve("consumer-it/src/it/readme/src/main/java/com/example/Quickstart.java"));
        String inside = java.substring(java.indexOf("// README example: start\n") + 25, java.indexOf(
                "        // README example: end"));
        StringBuilder expected = new StringBuilder();
        for (String line : block(readme, "java").split("\n")) {
            expected.append("        ").append(line).append('\n');
        }
        assertEquals(expected.toString(), inside);
    }
}
