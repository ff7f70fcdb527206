package io.regheads.app.cli;

import io.regheads.core.check.Checks;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A results file of {@code regheads uci}: one JSON object per line, one line per finished task
 * ({@link UciResult#toMap()}), appended and flushed as each task ends, so an interrupted run loses at most the task
 * in progress. A rerun reads the file and skips the tasks it already holds.
 *
 * <p>Reading keeps the last line per task key (a retried task's newer result wins) and removes a final line cut
 * short by an interruption (its task runs again); any other malformed line is an error.
 *
 * <p>Not thread-safe: one writer per file.
 */
final class UciResults {
    private final Path file;
    private final Map<String, UciResult> byKey = new LinkedHashMap<>();

    private UciResults(Path file) {
        this.file = file;
    }

    /**
     * Opens {@code file}, reading what it holds (a missing file is an empty store; it is created on the first
     * append). A malformed last line without its line end (an interrupted write) is cut off the file.
     *
     * @throws IllegalArgumentException on any other malformed line
     * @throws UncheckedIOException     if the file cannot be read or repaired
     */
    static UciResults open(Path file) {
        Checks.notNull("file", file);
        UciResults r = new UciResults(file);
        if (!Files.exists(file)) {
            return r;
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("--results: cannot read " + file + ": " + e.getMessage(), e);
        }
        String[] lines = text.split("\n", -1); // the last entry is "" when the text ends with a line end
        int good = 0; // characters up to the end of the last line read
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            boolean last = i == lines.length - 1;
            if (!line.isEmpty()) {
                try {
                    UciResult res = UciResult.fromMap(Json.readFlat(line));
                    r.byKey.put(res.key(), res);
                } catch (IllegalArgumentException e) {
                    if (last) {
                        r.truncate(good); // the line an interruption cut short; its task runs again
                        break;
                    }
                    throw new IllegalArgumentException("--results: line " + (i + 1) + " of " + file
                            + " is not a result: " + e.getMessage(), e);
                }
            }
            good += lines[i].length() + (last ? 0 : 1);
        }
        return r;
    }

    private void truncate(int chars) {
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(file, StandardOpenOption.WRITE)) {
            String kept = Files.readString(file, StandardCharsets.UTF_8).substring(0, chars);
            ch.truncate(kept.getBytes(StandardCharsets.UTF_8).length);
        } catch (IOException e) {
            throw new UncheckedIOException("--results: cannot repair " + file + ": " + e.getMessage(), e);
        }
    }

    /** The file. */
    Path file() {
        return file;
    }

    /** The stored result of the task with this key, or {@code null}. */
    UciResult get(String key) {
        return byKey.get(key);
    }

    /** Every stored result (last per key), in first-stored order. */
    List<UciResult> all() {
        return List.copyOf(byKey.values());
    }

    /**
     * Appends {@code r} as one line and flushes it to disk.
     *
     * @throws UncheckedIOException if the file cannot be written
     */
    void append(UciResult r) {
        Checks.notNull("result", r);
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            boolean newLineFirst = Files.exists(file) && Files.size(file) > 0 && !endsWithNewline();
            try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND)) {
                if (newLineFirst) {
                    w.newLine(); // after a line an interruption cut short
                }
                w.write(Json.write(r.toMap()));
                w.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("--results: cannot write " + file + ": " + e.getMessage(), e);
        }
        byKey.remove(r.key());
        byKey.put(r.key(), r);
    }

    private boolean endsWithNewline() throws IOException {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "r")) {
            f.seek(f.length() - 1);
            return f.read() == '\n';
        }
    }
}
