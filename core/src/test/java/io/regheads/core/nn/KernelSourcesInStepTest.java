package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code DoubleKernels.java} is {@code FloatKernels.java} put through a fixed substitution: this test regenerates
 * the double file's text from the float file's and requires it to equal the checked-in file, so that editing one
 * kernel file without the other fails the build. The rules, applied in this order to FloatKernels.java:
 *
 * <ol>
 *   <li>the class comment (the Javadoc block right before {@code final class}) is replaced by DoubleKernels' own,
 *       which must name FloatKernels as its source;</li>
 *   <li>every {@code (float) } cast (with its trailing space) is removed;</li>
 *   <li>{@code RELU_SCALE = 0x1p127f} becomes {@code RELU_SCALE = 0x1p1023} (the one constant that differs: the
 *       largest power of two of each type);</li>
 *   <li>an integer float literal such as {@code 0f} becomes the double literal {@code 0.0};</li>
 *   <li>{@code FloatKernels} becomes {@code DoubleKernels};</li>
 *   <li>{@code float} becomes {@code double} everywhere (words, types, comments) except in the plural
 *       {@code floats}, which only appears in prose about a measurement made on float arrays.</li>
 * </ol>
 *
 * <p>Equivalently: {@code perl -pe 's/\(float\) //g; s/RELU_SCALE = 0x1p127f/RELU_SCALE = 0x1p1023/;
 * s/\b(\d+)f\b/$1.0/g; s/FloatKernels/DoubleKernels/g; s/float(?!s\b)/double/g' FloatKernels.java}, then the
 * class comment replaced. (The float file's own comment quotes an older, shorter sed: it misses rules 3, 4 and 6.)
 */
class KernelSourcesInStepTest {

    private static final Pattern CLASS_COMMENT = Pattern.compile("(?s)\\A(.*?)(/\\*\\*.*?\\*/)(\\r?\\nfinal class )");

    static Path sourceDir() {
        Path base = Path.of(System.getProperty("basedir", "")).toAbsolutePath();
        Path dir = base.resolve("src/main/java/io/regheads/core/nn");
        if (!Files.isDirectory(dir)) { // run from the repository root rather than the module
            dir = base.resolve("core/src/main/java/io/regheads/core/nn");
        }
        assertTrue(Files.isDirectory(dir), "cannot find core's kernel sources from " + base);
        return dir;
    }

    /** The rules of the class comment, applied to the float file's text with the double file's class comment. */
    static String regenerate(String floatSource, String doubleClassComment) {
        Matcher m = CLASS_COMMENT.matcher(floatSource);
        assertTrue(m.find(), "FloatKernels.java has no class comment before 'final class'");
        String s = m.group(1) + "\u0000COMMENT\u0000" + floatSource.substring(m.start(3));
        s = s.replace("(float) ", "");
        s = s.replace("RELU_SCALE = 0x1p127f", "RELU_SCALE = 0x1p1023");
        s = s.replaceAll("\\b(\\d+)f\\b", "$1.0");
        s = s.replace("FloatKernels", "DoubleKernels");
        s = s.replaceAll("float(?!s\\b)", "double");
        return s.replace("\u0000COMMENT\u0000", doubleClassComment);
    }

    static String classComment(String source, String file) {
        Matcher m = CLASS_COMMENT.matcher(source);
        assertTrue(m.find(), file + " has no class comment before 'final class'");
        return m.group(2);
    }

    @Test
    void doubleKernelsIsFloatKernelsThroughTheSubstitution() throws IOException {
        Path dir = sourceDir();
        String floatSource = Files.readString(dir.resolve("FloatKernels.java"));
        String doubleSource = Files.readString(dir.resolve("DoubleKernels.java"));
        String comment = classComment(doubleSource, "DoubleKernels.java");
        assertTrue(comment.contains("FloatKernels"), "DoubleKernels' class comment must name FloatKernels, its source");
        String expected = regenerate(floatSource, comment);
        if (!expected.equals(doubleSource)) {
            String[] want = expected.split("\n", -1);
            String[] have = doubleSource.split("\n", -1);
            for (int i = 0; i < Math.max(want.length, have.length); i++) {
                String w = i < want.length ? want[i] : "<end of file>";
                String h = i < have.length ? have[i] : "<end of file>";
                if (!w.equals(h)) {
                    fail("DoubleKernels.java is out of step with FloatKernels.java at line " + (i + 1)
                            + " (regenerate it by the rules of KernelSourcesInStepTest):\n expected: " + w
                            + "\n   actual: " + h);
                }
            }
        }
        assertEquals(expected, doubleSource);
    }

    @Test
    void theRulesChangeWhatTheySay() {
        String comment = "/** Double kernels, from FloatKernels. */";
        String in = "package p;\n\n/** Float kernels. */\nfinal class FloatKernels {\n"
                + "    private static final float RELU_SCALE = 0x1p127f;\n"
                + "    float f(float[] x) { return (float) Math.max(x[0], 0f); } // 32k floats, float32\n}\n";
        String out = "package p;\n\n" + comment + "\nfinal class DoubleKernels {\n"
                + "    private static final double RELU_SCALE = 0x1p1023;\n"
                + "    double f(double[] x) { return Math.max(x[0], 0.0); } // 32k floats, double32\n}\n";
        assertEquals(out, regenerate(in, comment));
    }
}
