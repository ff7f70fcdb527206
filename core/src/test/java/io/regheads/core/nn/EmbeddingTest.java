package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.testing.GradientCheck;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

class EmbeddingTest {

    @Test
    void gathersRowsAndScattersGradientsAddingRepeats() {
        Embedding emb = new Embedding(3, 2, DataType.DOUBLE, 1L);
        emb.weight().value().assign(Nd4j.createFromArray(new double[][] {{1, 2}, {3, 4}, {5, 6}}));
        Embedding.Cache c = emb.forward(new int[] {2, 0, 2}, Arena.none());
        assertArrayEquals(new double[] {5, 6, 1, 2, 5, 6}, Naive.flat(c.output()), 0);
        emb.backward(c, Nd4j.createFromArray(new double[][] {{1, 1}, {2, 3}, {10, 20}}));
        // row 0 gets [2, 3]; row 1 nothing; row 2 gets [1, 1] + [10, 20]
        assertArrayEquals(new double[] {2, 3, 0, 0, 11, 21}, Naive.flat(emb.weight().grad()), 0);
    }

    @Test
    void batchedShapeAndGradientCheck() {
        Embedding emb = new Embedding(5, 3, DataType.DOUBLE, 2L);
        int[] ids = {4, 1, 1, 0, 3, 4};
        Embedding.Cache c = emb.forward(ids, 2, Arena.none());
        assertArrayEquals(new long[] {2, 3, 3}, c.output().shape());
        INDArray probe = GradientCheck.randomLike(c.output(), 3);
        double worst = GradientCheck.check(
                () -> emb.forward(ids, 2, Arena.none()).output().mul(probe).sumNumber().doubleValue(),
                () -> {
                    emb.weight().zeroGrad();
                    emb.backward(emb.forward(ids, 2, Arena.none()), probe);
                },
                List.of(new GradientCheck.Variable("weight", emb.weight().value(), emb.weight()::grad)),
                GradientCheck.Tolerance.standard());
        assertTrue(worst < 1e-8, "worst " + worst);
    }

    @Test
    void initIsStandardNormal() {
        Embedding emb = new Embedding(100, 50, DataType.DOUBLE, 3L);
        double mean = emb.weight().value().meanNumber().doubleValue();
        double std = emb.weight().value().stdNumber().doubleValue();
        // 5000 N(0,1) draws: mean within 4/sqrt(5000) = 0.057, std within 0.05 of 1
        assertEquals(0, mean, 0.057);
        assertEquals(1, std, 0.05);
    }

    @Test
    void rejectsBadIds() {
        Embedding emb = new Embedding(4, 2, DataType.FLOAT, 1L);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> emb.forward(new int[] {0, 4}, Arena.none()));
        assertEquals("ids[1] must be in [0, 4), got 4", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> emb.forward(new int[] {-1}, Arena.none()));
        assertEquals("ids[0] must be in [0, 4), got -1", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> emb.forward(new int[] {0, 1, 2}, 2, Arena.none()));
        assertEquals("ids.length must be a multiple of batch 2, got 3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> emb.forward(new int[0], Arena.none()));
        assertEquals("ids must not be empty, got length 0", e.getMessage());
    }
}
