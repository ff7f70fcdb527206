package io.regheads.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ArithCommandTest {

    /** A tiny run prints the configuration, the header and one row per variant with finite scores. */
    @Test
    void printsOneRowPerVariant() {
        CliTestSupport.Run r = CliTestSupport.run("arith", "--operands", "2-2", "--train", "40", "--test", "10",
                "--epochs", "1", "--width", "8", "--layers", "1", "--variants", "xval,ce");
        assertEquals(0, r.exit(), r.err());
        String[] lines = r.out().strip().split("\n");
        assertEquals(4, lines.length, r.out());
        assertTrue(lines[0].startsWith("# Config[task=EXPRESSIONS, trainSize=40"), lines[0]);
        assertTrue(lines[1].startsWith("variant"), lines[1]);
        assertTrue(lines[2].matches("XVAL +xVal +\\|.*"), lines[2]);
        assertTrue(lines[3].matches("CE +P10 +\\|.*"), lines[3]);
        assertTrue(!r.out().contains("NaN"), r.out());
    }

    @Test
    void rejectsBadOptions() {
        CliTestSupport.Run task = CliTestSupport.run("arith", "--task", "division");
        assertNotEquals(0, task.exit());
        assertTrue(task.err().contains("--task must be expressions or multiplication, got 'division'"), task.err());
        CliTestSupport.Run variant = CliTestSupport.run("arith", "--variants", "XVAL,FOO");
        assertNotEquals(0, variant.exit());
        assertTrue(variant.err().contains("got 'FOO'"), variant.err());
        CliTestSupport.Run xvalMult = CliTestSupport.run("arith", "--task", "multiplication", "--variants", "XVAL",
                "--train", "40", "--test", "5", "--epochs", "1");
        assertNotEquals(0, xvalMult.exit());
        assertTrue(xvalMult.err().contains("XVAL applies to EXPRESSIONS only"), xvalMult.err());
        CliTestSupport.Run ops = CliTestSupport.run("arith", "--operands", "1-4");
        assertNotEquals(0, ops.exit());
        assertTrue(ops.err().contains("minOperands"), ops.err());
    }
}
