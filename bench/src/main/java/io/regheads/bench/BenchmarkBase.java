package io.regheads.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Shared JMH settings for every benchmark in this module: average time per operation in microseconds, 5 warm-up
 * and 5 measured iterations of 1 s, one fork with a 2 GB heap, the Vector API module (the SIMD kernels; run with
 * {@code -jvmArgsAppend -Dregheads.simd=false} to time the scalar ones) and one libnd4j thread (set SD_MAX_THREADS=1 and
 * SD_MASTER_THREADS=1 in the environment, as README's commands do).
 * Subclasses may override any of these with their own annotations.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "-Dorg.bytedeco.javacpp.maxphysicalbytes=6G",
    "--add-modules", "jdk.incubator.vector"})
@State(Scope.Thread)
public abstract class BenchmarkBase {}
