package io.regheads.bench;

import io.regheads.core.internal.Host;
import java.util.concurrent.TimeUnit;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * How to read a float INDArray's host memory from Java fastest (the choice behind the losses module's row
 * access): the sum over a {@code [rows, 32128]} float array, by (a) {@code INDArray.getFloat(long)} per element,
 * (b) {@code DataBuffer.getFloat(long)} per element, (c) one host-layer copy per row into a Java array, then a
 * loop, (d) one host-layer copy of the whole array. Each variant returns the same sum (checked in setup).
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LossHostAccessBench extends BenchmarkBase {
    static final int COLS = 32128;

    @Param({"64"})
    public int rows;

    @Param({"indarray-getFloat", "databuffer-getFloat", "host-row", "host-whole"})
    public String access;

    private INDArray array;
    private float[] row;
    private float[] all;

    @Setup
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        array = Nd4j.rand(DataType.FLOAT, rows, COLS);
        row = new float[COLS];
        all = new float[rows * COLS];
        double ref = sumBulk();
        double got = sum();
        if (Math.abs(ref - got) > 1e-6 * Math.abs(ref)) {
            throw new IllegalStateException(access + " sum " + got + " != bulk sum " + ref);
        }
    }

    private double sumBulk() {
        double s = 0;
        for (int r = 0; r < rows; r++) {
            Host.read(array, (long) r * COLS, row, 0, COLS);
            for (int j = 0; j < COLS; j++) {
                s += row[j];
            }
        }
        return s;
    }

    @Benchmark
    public double sum() {
        double s = 0;
        long n = (long) rows * COLS;
        switch (access) {
            case "indarray-getFloat" -> {
                INDArray flat = array.reshape(n);
                for (long i = 0; i < n; i++) {
                    s += flat.getFloat(i);
                }
            }
            case "databuffer-getFloat" -> {
                var data = array.data();
                for (long i = 0; i < n; i++) {
                    s += data.getFloat(i);
                }
            }
            case "host-row" -> s = sumBulk();
            case "host-whole" -> {
                Host.read(array, all);
                for (float v : all) {
                    s += v;
                }
            }
            default -> throw new IllegalArgumentException("access must be one of the @Param values, got " + access);
        }
        return s;
    }
}
