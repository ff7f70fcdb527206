package io.regheads.core.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConsoleProgressTest {

    @Test
    void formatsOneLine() {
        Progress p = new Progress(3, 300, 17, 40, 0.0123456, 0.02345678, 0.021, 2, Duration.ofMillis(1234));
        assertEquals("epoch 3/300  step 17/40  loss 0.012346  val 0.023457  best 0.021000 @2  1.2s",
                ConsoleProgress.format(p));
        Progress first = new Progress(1, 5, 1, 4, 2.5, Double.NaN, Double.NaN, 0, Duration.ZERO);
        assertEquals("epoch 1/5  step 1/4  loss 2.5000  0.0s", ConsoleProgress.format(first));
    }

    @Test
    void rewritesTheLineWithCarriageReturnsAndEndsWithNewline() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress c = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), Duration.ZERO);
        c.onStep(new Progress(1, 5, 1, 4, 123.456, Double.NaN, Double.NaN, 0, Duration.ZERO));
        c.onEpochEnd(new Progress(1, 5, 4, 4, 1, 2, 2, 1, Duration.ZERO));
        c.onFinish(new TrainingResult(1, 1, 2, List.of(1.0), List.of(2.0), TrainingResult.StopReason.MAX_EPOCHS,
                "done", 4, Duration.ZERO));
        String s = bytes.toString(StandardCharsets.UTF_8);
        String[] parts = s.split("\r", -1);
        assertEquals(4, parts.length); // "", step line, epoch line, final line
        assertEquals("epoch 1/5  step 1/4  loss 123.46  0.0s", parts[1]);
        assertTrue(parts[2].startsWith("epoch 1/5  step 4/4  loss 1.0000  val 2.0000  best 2.0000 @1  0.0s"));
        // the final line pads over the longer previous line, then ends the display with a newline
        assertTrue(parts[3].startsWith("done   "), parts[3]);
        assertTrue(s.endsWith("\n"));
        assertEquals(parts[2].length() + 1, parts[3].length());
    }

    @Test
    void throttlesStepUpdates() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress c = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), Duration.ofHours(1));
        for (int i = 1; i <= 50; i++) {
            c.onStep(new Progress(1, 1, i, 50, 1, Double.NaN, Double.NaN, 0, Duration.ZERO));
        }
        assertEquals(1, bytes.toString(StandardCharsets.UTF_8).split("\r", -1).length - 1);
    }

    /** For a file or pipe: no carriage return, no step lines, epoch lines throttled (the last one always), the end. */
    @Test
    void plainLinesForLogFiles() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress c = ConsoleProgress.plain(new PrintStream(bytes, true, StandardCharsets.UTF_8),
                Duration.ofHours(1));
        for (int e = 1; e <= 3; e++) {
            c.onStep(new Progress(e, 3, 1, 4, 1, Double.NaN, Double.NaN, 0, Duration.ZERO));
            c.onEpochEnd(new Progress(e, 3, 4, 4, 1, 2, 2, 1, Duration.ZERO));
        }
        c.onWarning("careful");
        c.onFinish(new TrainingResult(3, 1, 2, List.of(1.0, 1.0, 1.0), List.of(2.0, 2.0, 2.0),
                TrainingResult.StopReason.MAX_EPOCHS, "done", 12, Duration.ZERO));
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(!s.contains("\r"), s);
        assertEquals(List.of("epoch 1/3  step 4/4  loss 1.0000  val 2.0000  best 2.0000 @1  0.0s",
                "epoch 3/3  step 4/4  loss 1.0000  val 2.0000  best 2.0000 @1  0.0s", "warning: careful", "done"),
                s.lines().toList());
    }
}
