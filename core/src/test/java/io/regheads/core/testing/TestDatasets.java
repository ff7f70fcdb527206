package io.regheads.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The small real datasets that tests read, in the layout of the repository's {@code datasets/} folder
 * ({@code <name>.csv}, {@code splits/<name>/fold.txt}, {@code splits/<name>/index_test_<k>.txt}). They are test
 * resources of core (shipped in its test-jar, so other modules' tests read the same files): today UCI yacht
 * hydrodynamics, 308 rows, 6 features (CC BY 4.0; source and citation in NOTICE and {@code datasets/README.md}).
 */
public final class TestDatasets {
    private static final String DIR = "/io/regheads/core/testing/datasets/";
    /** Every file under {@link #DIR} (a jar cannot be listed). */
    private static final List<String> FILES = files();
    private static Path root;

    private TestDatasets() {}

    private static List<String> files() {
        List<String> f = new ArrayList<>(List.of("yacht.csv", "splits/yacht/fold.txt"));
        for (int k = 0; k < 10; k++) {
            f.add("splits/yacht/index_test_" + k + ".txt");
        }
        return List.copyOf(f);
    }

    /**
     * The folder holding the datasets: the resource folder itself when the test classes are a directory, else (the
     * core test-jar on another module's class path) a temporary copy, deleted when the JVM exits.
     */
    public static synchronized Path root() {
        if (root == null) {
            root = locate();
        }
        return root;
    }

    private static Path locate() {
        URL url = TestDatasets.class.getResource(DIR + FILES.get(0));
        if (url == null) {
            throw new IllegalStateException("test resource " + DIR + FILES.get(0) + " is missing from the class path");
        }
        if ("file".equals(url.getProtocol())) {
            try {
                return Path.of(url.toURI()).getParent();
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot read " + url, e);
            }
        }
        try {
            Path tmp = Files.createTempDirectory("regheads-datasets-");
            List<Path> created = new ArrayList<>();
            created.add(tmp);
            for (String name : FILES) {
                Path target = tmp.resolve(name);
                for (Path p = target.getParent(); !p.equals(tmp); p = p.getParent()) {
                    if (!created.contains(p)) {
                        created.add(p);
                    }
                }
                Files.createDirectories(target.getParent());
                try (InputStream in = TestDatasets.class.getResourceAsStream(DIR + name)) {
                    if (in == null) {
                        throw new IllegalStateException("test resource " + DIR + name + " is missing");
                    }
                    Files.copy(in, target);
                }
                created.add(target);
            }
            created.sort((a, b) -> a.getNameCount() - b.getNameCount()); // deleteOnExit runs in reverse order
            created.forEach(p -> p.toFile().deleteOnExit());
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack the test datasets", e);
        }
    }
}
