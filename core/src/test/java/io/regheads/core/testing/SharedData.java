package io.regheads.core.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds {@code ../shared} (the datasets and the peer's data) from the module's working directory upwards. */
public final class SharedData {
    private SharedData() {}

    /** The {@code shared} folder beside the checkout; fails with a clear message when it cannot be found. */
    public static Path root() {
        return find();
    }

    /** {@code shared/datasets}. */
    public static Path datasets() {
        return find().resolve("datasets");
    }

    private static Path find() {
        String prop = System.getProperty("regheads.shared");
        if (prop != null) {
            return Path.of(prop);
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("shared");
            if (Files.isDirectory(candidate.resolve("datasets"))) {
                return candidate;
            }
            candidate = p.resolveSibling("shared");
            if (Files.isDirectory(candidate.resolve("datasets"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find the shared/ folder (datasets) above " + Path.of("").toAbsolutePath()
                + "; set -Dregheads.shared=/path/to/shared");
    }
}
