package io.regheads.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The build check behind the tokenizer capabilities ({@code NumberTokenizer.everySequenceValid}, {@code
 * hasSpecialTokens}, {@code narrowestCell}, ...) and facets ({@code PrefixRanges}, {@code FixedPointDigits}, {@code
 * Voting}): outside the tokenizers module, no main source tests or casts to a concrete tokenizer class ({@code
 * instanceof UnnormalizedTokenizer}, {@code (RepeatedTokenizer) tok}, {@code getClass() == HammingTokenizer.class}).
 * Shared code asks the tokenizer what it can do, or tests a facet interface, instead, so a new tokenizer works
 * everywhere by answering those questions.
 */
class TokenizerTypeTestConfinementTest {
    /** A test of, or a cast to, a tokenizer class other than the interface {@code NumberTokenizer}. */
    static final Pattern TYPE_TEST = Pattern.compile(
            "\\binstanceof\\s+(final\\s+)?(?!NumberTokenizer\\b)[A-Z]\\w*Tokenizer\\b"
                    + "|\\(\\s*(?!NumberTokenizer\\b)[A-Z]\\w*Tokenizer\\s*\\)\\s*[A-Za-z_(]"
                    + "|\\b(?!NumberTokenizer\\b)[A-Z]\\w*Tokenizer\\.class\\b"
                    + "|case\\s+(?!NumberTokenizer\\b)[A-Z]\\w*Tokenizer\\s+\\w+\\s*->");
    /** Where the concrete tokenizers live: they may name themselves. */
    static final String TOKENIZERS = "tokenizers/src/main/";

    @Test
    void noSharedCodeTestsWhichTokenizerItHolds() throws IOException {
        Path root = NativeAccessConfinementTest.repositoryRoot();
        List<String> offenders = new ArrayList<>();
        int scanned = 0;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String rel = root.relativize(f).toString().replace('\\', '/');
                if (!rel.endsWith(".java") || rel.contains("/target/") || rel.startsWith(".git/")
                        || !rel.contains("/src/main/") || rel.startsWith(TOKENIZERS)) {
                    continue;
                }
                scanned++;
                List<String> lines = read(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (TYPE_TEST.matcher(lines.get(i)).find()) {
                        offenders.add(rel + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertTrue(scanned > 100, "scanned the repository's main sources, got " + scanned + " files");
        assertEquals(List.of(), offenders, "tests of a concrete tokenizer class outside " + TOKENIZERS
                + " (ask the tokenizer: NumberTokenizer capabilities, or test a facet such as PrefixRanges)");
    }

    @Test
    void thePatternCatchesTheFormsItMustCatch() {
        for (String bad : new String[] {"this.repeated = tok instanceof RepeatedTokenizer rt ? rt : null;",
            "if (t instanceof final UnnormalizedTokenizer u) {", "((UnnormalizedTokenizer) tok).digits()",
            "tok.getClass() == HammingTokenizer.class", "case NormalizedTokenizer n -> 1;",
            "x instanceof ChartonTokenizer"}) {
            assertTrue(TYPE_TEST.matcher(bad).find(), bad);
        }
        for (String fine : new String[] {"NumberTokenizer tok = head.tokenizer();", "tok instanceof NumberTokenizer",
            "UnnormalizedTokenizer tokenizer() {", "new RepeatedTokenizer(inner, 2)", "(NumberTokenizer) o",
            "tok instanceof PrefixRanges ranges", "tok instanceof FixedPointDigits", "(Voting) rows.tok",
            "return new UnnormalizedTokenizer(c);", "List<UnnormalizedTokenizer> all"}) {
            assertFalse(TYPE_TEST.matcher(fine).find(), fine);
        }
    }

    private static List<String> read(Path f) {
        try {
            return Files.readAllLines(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
