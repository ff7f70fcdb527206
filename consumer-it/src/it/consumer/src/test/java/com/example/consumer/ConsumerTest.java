package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.data.Dataset;
import io.regheads.core.dist.PredictiveDistribution;
import io.regheads.core.train.TrainerConfig;
import io.regheads.heads.mixture.MixtureSpec;
import io.regheads.heads.model.ModelConfig;
import io.regheads.heads.model.RegressionModel;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.NormalizedTokenizer;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Random;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.factory.Nd4j;

/** Uses the installed regheads artifacts as an application would: fit a tiny model, predict, check the jars. */
class ConsumerTest {

    @Test
    void fitsATinyDatasetAndPredicts() {
        Random r = new Random(7);
        int n = 200;
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = r.nextDouble() * 2 - 1;
            x[i][1] = r.nextDouble() * 2 - 1;
            y[i] = 2 * x[i][0] - x[i][1] + 0.05 * r.nextGaussian();
        }
        ModelConfig config = ModelConfig.defaults(new MixtureSpec(3)).withEncoder(2, 32)
                .withTrainer(TrainerConfig.defaults().withSeed(1).withMaxEpochs(60));
        RegressionModel model = RegressionModel.create(config, 2);
        model.fit(Dataset.of(x, y));

        PredictiveDistribution d = model.predict(new double[][] {{0.5, -0.5}, {-0.5, 0.5}, {0, 0}});
        double[] mean = d.mean();
        assertEquals(3, mean.length);
        double[] truth = {1.5, -1.5, 0};
        for (int i = 0; i < mean.length; i++) {
            assertTrue(Double.isFinite(mean[i]), "finite mean");
            assertEquals(truth[i], mean[i], 0.6, "row " + i + " mean " + mean[i]); // y spans [-3, 3]
        }
        double[] q10 = d.inverseCumulativeProbability(0.1);
        double[] q90 = d.inverseCumulativeProbability(0.9);
        for (int i = 0; i < mean.length; i++) {
            assertTrue(q10[i] < q90[i], "quantiles in order");
        }
        // the backend is the one this project picked
        assertTrue(Nd4j.getBackend().getClass().getName().startsWith("org.nd4j.linalg.cpu.nativecpu"),
                Nd4j.getBackend().getClass().getName());
    }

    /** Every library jar names its module and carries LICENSE and NOTICE. */
    @Test
    void jarsCarryModuleNamesAndNotices() throws IOException, URISyntaxException {
        check(Dataset.class, "io.regheads.core");
        check(NormalizedTokenizer.class, "io.regheads.tokenizers");
        check(Losses.class, "io.regheads.losses");
        check(RegressionModel.class, "io.regheads.heads");
    }

    private static void check(Class<?> c, String moduleName) throws IOException, URISyntaxException {
        Path jar = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(jar.toString().endsWith(".jar"), c + " comes from " + jar);
        try (JarFile f = new JarFile(jar.toFile())) {
            assertEquals(moduleName, f.getManifest().getMainAttributes().getValue("Automatic-Module-Name"), jar.toString());
            assertNotNull(f.getEntry("META-INF/LICENSE"), jar + " has META-INF/LICENSE");
            assertNotNull(f.getEntry("META-INF/NOTICE"), jar + " has META-INF/NOTICE");
        }
    }
}
