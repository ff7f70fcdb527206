package io.regheads.core.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ScalersTest {

    @Test
    void standardScalerHandExampleAndZeroVarianceColumn() {
        double[][] x = {{1, 5}, {2, 5}, {3, 5}};
        StandardScaler s = StandardScaler.fit(x);
        // column 0: mean 2, population sd sqrt(2/3); column 1 constant -> scale 1 (documented)
        assertArrayEquals(new double[] {2, 5}, s.mean(), 1e-15);
        assertArrayEquals(new double[] {Math.sqrt(2.0 / 3), 1.0}, s.scale(), 1e-15);
        assertArrayEquals(new double[] {1.224744871391589, 0.0}, s.transform(new double[] {3, 5}), 1e-15);
        assertArrayEquals(new double[] {3, 5}, s.inverseTransform(s.transform(new double[] {3, 5})), 1e-15);
        // a constant column whose mean is not representable still counts as zero-variance
        StandardScaler c = StandardScaler.fit(new double[][] {{0.1}, {0.1}, {0.1}});
        assertArrayEquals(new double[] {1.0}, c.scale(), 0.0);
    }

    @Test
    void fittedOnYachtTrainRowsOnly() {
        Dataset all = CsvLoader.load(CsvLoaderTest.ROOT.resolve("yacht.csv"));
        Folds.Split split = Folds.forDataset(CsvLoaderTest.ROOT, "yacht").split(all, 3);
        StandardScaler xs = StandardScaler.fit(split.train());
        Dataset train = xs.transform(split.train());
        for (int j = 0; j < 6; j++) {
            double m = 0;
            double ss = 0;
            for (int i = 0; i < train.rows(); i++) {
                m += train.x(i, j);
            }
            m /= train.rows();
            for (int i = 0; i < train.rows(); i++) {
                ss += (train.x(i, j) - m) * (train.x(i, j) - m);
            }
            assertEquals(0.0, m, 1e-12, "mean of column " + j);
            assertEquals(1.0, Math.sqrt(ss / train.rows()), 1e-12, "sd of column " + j);
        }
        // the fit did not see the test rows: fitting on all rows gives other means
        assertNotEquals(StandardScaler.fit(all).mean()[5], xs.mean()[5]);
        Dataset test = xs.transform(split.test());
        assertArrayEquals(split.test().row(7), xs.inverseTransform(test.row(7)), 1e-12);

        MinMaxScaler ys = MinMaxScaler.fit(split.train());
        double[] ty = ys.transform(split.train().y());
        assertEquals(0.0, java.util.Arrays.stream(ty).min().getAsDouble(), 0.0);
        assertEquals(1.0, java.util.Arrays.stream(ty).max().getAsDouble(), 1e-15);
        assertArrayEquals(split.test().y(), ys.inverseTransform(ys.transform(split.test()).y()), 1e-12);
    }

    @Test
    void minMaxHandExampleAndLogJacobian() {
        MinMaxScaler s = MinMaxScaler.fit(new double[] {4, 2, 10});
        assertEquals(0.25, s.transform(4), 0.0);
        assertEquals(6.0, s.inverseTransform(0.5), 0.0);
        assertEquals(1.5, s.transform(14), 0.0); // outside the training range: no clipping
        assertEquals(Math.log(8), s.logJacobian(), 0.0);
        // change of variables: a uniform density 1 on [0, 1] is density 1/8 on [2, 10]; integrate numerically
        double integral = 0;
        int n = 1000;
        for (int i = 0; i < n; i++) {
            double y = 2 + 8 * (i + 0.5) / n;
            double logPs = s.transform(y) >= 0 && s.transform(y) <= 1 ? 0.0 : Double.NEGATIVE_INFINITY;
            integral += Math.exp(logPs - s.logJacobian()) * 8.0 / n;
        }
        assertEquals(1.0, integral, 1e-12);
    }

    @Test
    void minMaxRejectsConstantEmptyAndNonFinite() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MinMaxScaler.fit(new double[] {3, 3}));
        assertEquals("yTrain must not be constant (max - min must be > 0 and finite), got min 3.0, max 3.0",
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MinMaxScaler.fit(new double[0]));
        assertEquals("yTrain must not be empty, got length 0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MinMaxScaler.fit(new double[] {1, Double.NaN}));
        assertEquals("yTrain must be finite everywhere, got NaN at index 1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> StandardScaler.fit(new double[][] {{1, 2}, {3}}));
        assertEquals("x must be rectangular with 2 columns, row 1 differs", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> StandardScaler.fit(new double[][] {{1}}).transform(new double[] {1, 2}));
        assertEquals("row must have 1 columns, got 2", e.getMessage());
    }

    @Test
    void rangesThatOverflowAreSaidToOverflow() {
        // -1.7e308 and 1.7e308 are finite, their difference is not: it was reported as "must not be constant"
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MinMaxScaler.fit(new double[] {-1.7e308, 0, 1.7e308}));
        assertEquals("yTrain range must be finite, got max - min = Infinity (min -1.7E308, max 1.7E308): it overflows "
                + "double; scale y down (e.g. divide by 1e300)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> MinMaxScaler.of(-1.7e308, 1.7e308));
        assertEquals("max - min must be finite, got Infinity (min -1.7E308, max 1.7E308)", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> StandardScaler.fit(new double[][] {{1, -1.7e308}, {2, 1.7e308}}));
        assertEquals("x column 1 has values too large for a mean and standard deviation in double (largest magnitude "
                + "1.7E308, standard deviation Infinity); scale the column down before fitting", e.getMessage());
    }
}
