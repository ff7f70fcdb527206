package io.regheads.app.experiments;

import io.regheads.app.cli.InputData;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --datasets-dir} and {@code --datasets} options of the experiment commands that read shipped datasets
 * (a picocli mixin), and the datasets they name.
 *
 * <p>Not thread-safe (one instance per invocation).
 */
final class DatasetOptions {
    @Option(names = "--datasets-dir", paramLabel = "DIR", defaultValue = "datasets",
            description = "Folder with <name>.csv and splits/<name>/fold.txt (default: ${DEFAULT-VALUE}; airfoil is "
                    + "also embedded).")
    Path datasetsDir;

    @Option(names = "--datasets", paramLabel = "LIST", defaultValue = "airfoil",
            description = "Datasets (default: ${DEFAULT-VALUE}).")
    String datasets;

    /**
     * @return the named datasets, in order
     * @throws IllegalArgumentException on a malformed list or a dataset that cannot be read (naming it)
     */
    List<InputData> load() {
        return Experiments.parseNames("--datasets", datasets).stream()
                .map(n -> Experiments.dataset(datasetsDir, n)).toList();
    }
}
