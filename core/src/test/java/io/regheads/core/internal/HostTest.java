package io.regheads.core.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * The host-access layer against ND4J's own element access ({@code getDouble}/{@code putScalar}, which go through
 * ND4J's indexers, not through this class): whole arrays, views with offsets, ranges, conversions, layouts that
 * must be refused, and the device synchronisation each access performs.
 */
class HostTest {

    static INDArray ramp(DataType type, long... shape) {
        long n = 1;
        for (long s : shape) {
            n *= s;
        }
        return Nd4j.linspace(1, n, n, DataType.DOUBLE).muli(0.37).subi(3.1).castTo(type).reshape('c', shape).dup('c');
    }

    @Test
    void readsWholeArraysAsNd4jSeesThem() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray a = ramp(type, 7, 1001); // more than one 4096-element conversion chunk
            double[] d = Host.doubles(a);
            for (int i = 0; i < d.length; i++) {
                assertEquals(a.getDouble(i / 1001, i % 1001), d[i], 0.0, type + " element " + i);
            }
            if (type == DataType.FLOAT) {
                float[] f = Host.floats(a);
                for (int i = 0; i < f.length; i++) {
                    assertEquals(a.getFloat(i / 1001, i % 1001), f[i], 0.0f);
                }
            }
        }
    }

    @Test
    void viewsStartAtTheirOffset() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray big = ramp(type, 6, 8);
            INDArray rows = big.get(NDArrayIndex.interval(2, 5), NDArrayIndex.all()); // rows 2..4, offset 16
            assertTrue(rows.offset() > 0, "a view with an offset");
            assertArrayEquals(rows.dup('c').reshape(24).toDoubleVector(), Host.doubles(rows), 0.0);
            double[] src = new double[24];
            for (int i = 0; i < src.length; i++) {
                src[i] = 100 + i;
            }
            Host.write(src, rows);
            assertEquals(100.0, big.getDouble(2, 0), 0.0);
            assertEquals(123.0, big.getDouble(4, 7), 0.0);
            assertEquals(ramp(type, 6, 8).getDouble(1, 7), big.getDouble(1, 7), 0.0, "row before the view untouched");
            assertEquals(ramp(type, 6, 8).getDouble(5, 0), big.getDouble(5, 0), 0.0, "row after the view untouched");
        }
    }

    @Test
    void rangesReadAndWriteOnlyTheirElements() {
        INDArray a = ramp(DataType.FLOAT, 5000);
        double[] dst = new double[10];
        Host.read(a, 4990, dst, 0, 10);
        for (int i = 0; i < 10; i++) {
            assertEquals(a.getDouble(4990 + i), dst[i], 0.0);
        }
        float[] part = {1.5f, 2.5f, 3.5f};
        Host.write(part, 1, 2, a, 10); // src[1..3) -> a[10..12)
        assertEquals(2.5f, a.getFloat(10), 0f);
        assertEquals(3.5f, a.getFloat(11), 0f);
        assertEquals(ramp(DataType.FLOAT, 5000).getFloat(12), a.getFloat(12), 0f);
        assertEquals(ramp(DataType.FLOAT, 5000).getFloat(9), a.getFloat(9), 0f);
        assertEquals(a.getDouble(4321), Host.get(a, 4321), 0.0);
        Host.set(a, 4321, -7.25);
        assertEquals(-7.25, a.getDouble(4321), 0.0);
    }

    @Test
    void conversionsAndZeroingCrossChunksInsideAView() {
        int n = 2 * 4096 + 9; // two whole 4096-element chunks and a part
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray big = ramp(type, 3, n);
            INDArray mid = big.get(NDArrayIndex.interval(1, 2), NDArrayIndex.all()); // row 1, offset n
            double[] src = new double[n + 5];
            for (int i = 0; i < src.length; i++) {
                src[i] = 0.1 * i - 400; // not exact in float: rounded once on the way in
            }
            Host.write(src, 5, n, mid, 0);
            double[] back = new double[n + 3];
            Host.read(mid, 0, back, 3, n);
            for (int i = 0; i < n; i++) {
                double expected = type == DataType.FLOAT ? (float) src[5 + i] : src[5 + i];
                assertEquals(expected, big.getDouble(1, i), 0.0, type + " written element " + i);
                assertEquals(expected, back[3 + i], 0.0, type + " read element " + i);
            }
            assertEquals(ramp(type, 3, n).getDouble(0, n - 1), big.getDouble(0, n - 1), 0.0, "row 0 untouched");
            assertEquals(ramp(type, 3, n).getDouble(2, 0), big.getDouble(2, 0), 0.0, "row 2 untouched");
            Host.zero(mid);
            for (int i = 0; i < n; i++) {
                assertEquals(0.0, big.getDouble(1, i), 0.0, type + " zeroed element " + i);
            }
            assertEquals(ramp(type, 3, n).getDouble(2, 0), big.getDouble(2, 0), 0.0, "row 2 not zeroed");
        }
    }

    @Test
    void doublesWrittenToAFloatArrayRoundOnce() {
        INDArray a = Nd4j.create(DataType.FLOAT, 3);
        double[] src = {0.1, 1e-46, -Math.PI};
        Host.write(src, a);
        for (int i = 0; i < 3; i++) {
            assertEquals((float) src[i], a.getFloat(i), 0f);
        }
    }

    @Test
    void fillRowsAndZero() {
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray a = ramp(type, 4, 3, 5);
            Host.fillRows(new double[] {1, 2, 3, 4, 5}, a);
            for (int r = 0; r < 4; r++) {
                for (int t = 0; t < 3; t++) {
                    for (int j = 0; j < 5; j++) {
                        assertEquals(j + 1.0, a.getDouble(r, t, j), 0.0);
                    }
                }
            }
            INDArray big = ramp(type, 3, 4);
            INDArray view = big.get(NDArrayIndex.interval(1, 3), NDArrayIndex.all());
            Host.zero(view);
            assertEquals(0.0, big.getDouble(1, 0), 0.0);
            assertEquals(0.0, big.getDouble(2, 3), 0.0);
            assertEquals(ramp(type, 3, 4).getDouble(0, 3), big.getDouble(0, 3), 0.0, "row before the view untouched");
        }
    }

    @Test
    void reluClampsEveryElementInPlaceAcrossChunksAndKeepsNaN() {
        float[] special = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, Float.MIN_VALUE,
            -Float.MIN_VALUE, Float.MAX_VALUE, -Float.MAX_VALUE, 1e-40f, -1e-40f};
        int n = 2 * 4096 + 7; // two whole chunks and a part
        java.util.Random rnd = new java.util.Random(3);
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = i < special.length ? special[i] : (float) rnd.nextGaussian();
            }
            // row 1 is clamped, through a view
            INDArray big = org.nd4j.linalg.factory.Nd4j.createUninitialized(type, new long[] {3, n}, 'c');
            Host.write(x, 0, n, big, 0);
            Host.write(x, 0, n, big, n);
            Host.write(x, 0, n, big, 2L * n);
            Host.relu(big.get(NDArrayIndex.interval(1, 2), NDArrayIndex.all()));
            double[] after = Host.doubles(big);
            for (int i = 0; i < n; i++) {
                double expected = Double.isNaN(x[i]) ? Double.NaN : x[i] > 0 ? x[i] : 0.0; // +0.0, also for -0.0
                assertEquals(Double.doubleToRawLongBits(expected), Double.doubleToRawLongBits(after[n + i]),
                        type + " element " + i + " = " + x[i]);
                assertEquals(Double.doubleToRawLongBits(x[i]), Double.doubleToRawLongBits(after[i]), "row 0 untouched");
                assertEquals(Double.doubleToRawLongBits(x[i]), Double.doubleToRawLongBits(after[2 * n + i]),
                        "row 2 untouched");
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Host.relu(ramp(DataType.FLOAT, 3, 4).dup('f')));
    }

    @Test
    void firstNonFiniteFindsTheFirstBadElement() {
        INDArray a = ramp(DataType.FLOAT, 9000);
        assertEquals(-1, Host.firstNonFinite(a));
        a.putScalar(8500, Float.POSITIVE_INFINITY);
        a.putScalar(6000, Float.NaN);
        assertEquals(6000, Host.firstNonFinite(a));
    }

    @Test
    void matrixAndDoublesAcceptAnyLayout() {
        INDArray f = ramp(DataType.DOUBLE, 3, 4).dup('f');
        double[][] m = Host.matrix(f);
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 4; j++) {
                assertEquals(f.getDouble(i, j), m[i][j], 0.0);
            }
        }
        assertArrayEquals(f.dup('c').reshape(12).toDoubleVector(), Host.doubles(f), 0.0);
        assertArrayEquals(new double[] {1, 2, 3}, Host.doubles(Nd4j.createFromArray(1, 2, 3)), 0.0); // INT
    }

    @Test
    void refusesWhatItCannotAddress() {
        INDArray f = ramp(DataType.FLOAT, 3, 4).dup('f');
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Host.read(f, new float[12]));
        assertTrue(e.getMessage().contains("c-ordered and contiguous"), e.getMessage());
        INDArray col = ramp(DataType.FLOAT, 3, 4).get(NDArrayIndex.all(), NDArrayIndex.point(1));
        assertThrows(IllegalArgumentException.class, () -> Host.write(new float[3], col));
        INDArray d = ramp(DataType.DOUBLE, 4);
        e = assertThrows(IllegalArgumentException.class, () -> Host.read(d, new float[4]));
        assertTrue(e.getMessage().contains("must be FLOAT"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Host.read(d, new double[5]));
        assertTrue(e.getMessage().contains("length 4, got 5"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Host.read(d, 2, new double[5], 0, 3));
        assertTrue(e.getMessage().contains("must both lie inside"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Host.write(new double[3], 0, 3, d, -1));
        assertThrows(IllegalArgumentException.class, () -> Host.fillRows(new double[3], d));
        assertThrows(IllegalArgumentException.class, () -> Host.read(Nd4j.createFromArray(1, 2), new double[2]));
    }

    /** Records the device synchronisation calls, as a CUDA backend would receive them. */
    static final class Recording implements DeviceSync {
        final List<String> calls = new ArrayList<>();

        @Override
        public void beforeHostAccess(INDArray a) {
            calls.add("ensureHost:" + a.length());
        }

        @Override
        public void afterHostWrite(INDArray a) {
            calls.add("tagHost:" + a.length());
        }
    }

    @Test
    void everyAccessSynchronisesWithTheDeviceFirstAndEveryWriteTagsTheHostCopy() {
        Recording sync = new Recording();
        INDArray a = ramp(DataType.FLOAT, 6);
        HostCopy.read(sync, a, new float[6]);
        HostCopy.read(sync, a, 2, new double[3], 0, 3);
        assertEquals(List.of("ensureHost:6", "ensureHost:6"), sync.calls, "reads: ensure only");
        sync.calls.clear();
        HostCopy.write(sync, new double[6], 0, 6, a, 0, true);
        HostCopy.write(sync, new float[2], 0, 2, a, 4, false);
        HostCopy.fillRows(sync, new float[] {1, 2, 3}, a.reshape(2, 3));
        HostCopy.zero(sync, a);
        HostCopy.relu(sync, a);
        assertEquals(List.of("ensureHost:6", "tagHost:6", "ensureHost:6", "tagHost:6", "ensureHost:6", "tagHost:6",
                "ensureHost:6", "tagHost:6", "ensureHost:6", "tagHost:6"), sync.calls,
                "writes: ensure before (partial writes keep the rest), tag after");
        sync.calls.clear();
        HostCopy.read(sync, a, 0, new float[0], 0, 0);
        assertEquals(List.of(), sync.calls, "empty ranges touch nothing");
    }

    @Test
    void theAffinityManagerBranchWorksOnTheCpuBackend() {
        // the calls a CUDA backend needs, made against the CPU backend's affinity manager: same results
        DeviceSync sync = DeviceSync.affinity();
        for (DataType type : new DataType[] {DataType.FLOAT, DataType.DOUBLE}) {
            INDArray a = ramp(type, 3, 5);
            double[] d = new double[15];
            HostCopy.read(sync, a, 0, d, 0, 15);
            assertArrayEquals(a.dup('c').reshape(15).toDoubleVector(), d, 0.0);
            for (int i = 0; i < d.length; i++) {
                d[i] = 2 * d[i] + 1;
            }
            HostCopy.write(sync, d, 0, 15, a, 0, true);
            assertEquals(type == DataType.FLOAT ? (float) d[7] : d[7], a.getDouble(1, 2), 0.0);
            HostCopy.zero(sync, a);
            assertEquals(0.0, a.sumNumber().doubleValue(), 0.0, "an ND4J op after a host write sees it");
        }
        assertEquals(DeviceSync.NONE, DeviceSync.forBackend(), "the CPU backend synchronises nothing");
    }

    @Test
    void gemmMatchesNaiveProductsThroughViews() {
        if (!Host.blasAvailable()) {
            return;
        }
        INDArray big = ramp(DataType.DOUBLE, 5, 3);
        INDArray a = big.get(NDArrayIndex.interval(1, 5), NDArrayIndex.all()); // [4, 3] at offset 3
        INDArray b = ramp(DataType.DOUBLE, 3, 2);
        INDArray c = Nd4j.ones(DataType.DOUBLE, 4, 2);
        Host.gemm(a, b, c, false, false, 4, 2, 3, 2.0, 0.5);
        for (int i = 0; i < 4; i++) {
            for (int j = 0; j < 2; j++) {
                double s = 0;
                for (int k = 0; k < 3; k++) {
                    s += a.getDouble(i, k) * b.getDouble(k, j);
                }
                assertEquals(2 * s + 0.5, c.getDouble(i, j), 1e-12);
            }
        }
    }
}
