package io.regheads.bench;

import java.nio.FloatBuffer;
import java.util.concurrent.TimeUnit;
import org.bytedeco.javacpp.FloatPointer;
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
 * (b) {@code DataBuffer.getFloat(long)} per element, (c) absolute {@code FloatBuffer.get(int)} per element on a
 * direct view, (d) bulk {@code FloatBuffer.get(int, float[], ...)} of each row into a Java array, then a loop.
 * Each variant returns the same sum (checked in setup).
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LossHostAccessBench extends BenchmarkBase {
    static final int COLS = 32128;

    @Param({"64"})
    public int rows;

    @Param({"indarray-getFloat", "databuffer-getFloat", "nio-get", "nio-bulk-row"})
    public String access;

    private INDArray array;
    private FloatBuffer view;
    private float[] row;

    @Setup
    public void setUp() {
        Nd4j.getRandom().setSeed(1);
        array = Nd4j.rand(DataType.FLOAT, rows, COLS);
        FloatPointer p = new FloatPointer(array.data().addressPointer());
        p.capacity(array.length());
        view = p.asBuffer();
        row = new float[COLS];
        double ref = sumBulk();
        double got = sum();
        if (Math.abs(ref - got) > 1e-6 * Math.abs(ref)) {
            throw new IllegalStateException(access + " sum " + got + " != bulk sum " + ref);
        }
    }

    private double sumBulk() {
        double s = 0;
        for (int r = 0; r < rows; r++) {
            view.get(r * COLS, row, 0, COLS);
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
            case "nio-get" -> {
                for (int i = 0; i < n; i++) {
                    s += view.get(i);
                }
            }
            case "nio-bulk-row" -> s = sumBulk();
            default -> throw new IllegalArgumentException("access must be one of the @Param values, got " + access);
        }
        return s;
    }
}
