package io.regheads.app.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the repository's {@code datasets/} folder is: the default of {@code uci --datasets-dir}. The system
 * property {@value #PROPERTY} wins (the {@code ./regheads} launcher sets it to the {@code datasets/} folder beside
 * itself); else the first {@code datasets/} folder with a {@code splits/} subfolder found from the working
 * directory upwards (the repository root or any folder inside it). Stateless.
 */
final class DatasetsDir {
    /** System property naming the datasets folder. */
    static final String PROPERTY = "regheads.datasets";

    private DatasetsDir() {}

    /** The datasets folder for this JVM (see the class comment). */
    static Path locate() {
        return locate(System.getProperty(PROPERTY), Path.of("").toAbsolutePath());
    }

    /**
     * The datasets folder given the property's value (or {@code null}) and the working directory; when none is found,
     * {@code datasets} under the working directory (so the error that follows names a sensible place).
     */
    static Path locate(String property, Path workingDir) {
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        for (Path p = workingDir; p != null; p = p.getParent()) {
            Path candidate = p.resolve("datasets");
            if (Files.isDirectory(candidate.resolve("splits"))) {
                return candidate;
            }
        }
        return workingDir.resolve("datasets");
    }
}
