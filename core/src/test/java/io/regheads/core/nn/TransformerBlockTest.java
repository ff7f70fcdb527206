package io.regheads.core.nn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.nn.MultiHeadSelfAttention.Kernel;
import io.regheads.core.testing.GradientCheck;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

class TransformerBlockTest {

    record Masked(TransformerBlock block, INDArray mask) implements Layer<TransformerBlock.Cache> {
        @Override
        public List<Param> params() {
            return block.params();
        }

        @Override
        public TransformerBlock.Cache forward(INDArray input, Arena arena) {
            return block.forward(input, mask, arena);
        }

        @Override
        public INDArray backward(TransformerBlock.Cache cache, INDArray dOut, Arena arena) {
            return block.backward(cache, dOut, arena);
        }
    }

    static TransformerBlock block(Kernel kernel, DataType type) {
        TransformerBlock blk = new TransformerBlock("blk", new TransformerBlock.Config(8, 2, 12), kernel, type,
                Tensors.rng(5));
        // non-trivial layer-norm parameters, so their gradients are exercised beyond the identity
        blk.ln1().gain().value().assign(GradientCheck.random(1, 0.5, 8).addi(1).castTo(type));
        blk.ln2().bias().value().assign(GradientCheck.random(2, 0.5, 8).castTo(type));
        return blk;
    }

    @ParameterizedTest
    @EnumSource(value = Kernel.class, names = {"JAVA", "ND4J"})
    void passesTheGradientCheckWithAMask(Kernel kernel) {
        TransformerBlock blk = block(kernel, DataType.DOUBLE);
        INDArray x = GradientCheck.random(3, 1.0, 2, 3, 8);
        INDArray mask = GradientCheck.random(4, 1.0, 2, 3, 3);
        double worst = GradientCheck.checkLayer(new Masked(blk, mask), x, 6,
                MultiHeadSelfAttentionTest.ATTENTION_TOLERANCE);
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @ParameterizedTest
    @EnumSource(value = DataType.class, names = {"FLOAT", "DOUBLE"})
    void matchesTheNaiveComposition(DataType type) {
        TransformerBlock blk = block(Kernel.AUTO, type);
        INDArray x = GradientCheck.random(7, 1.0, 3, 5, 8).castTo(type);
        INDArray mask = MultiHeadSelfAttentionTest.sharedMask(5, type);
        double[] ref = Naive.block(blk, Naive.flat(x), Naive.flat(mask), false, 3, 5);
        double diff = Naive.maxAbsDiff(ref, Naive.flat(blk.forward(x, mask, Arena.none()).output()));
        assertTrue(diff < (type == DataType.FLOAT ? 2e-5 : 1e-12), "max difference " + diff);
    }

    /** The ReLU MLP (the PyTorch peer's block): gradient check with a mask, and the naive composition. */
    @Test
    void reluBlockPassesTheGradientCheckAndMatchesTheNaiveComposition() {
        TransformerBlock blk = new TransformerBlock("blk", new TransformerBlock.Config(8, 2, 12,
                TransformerBlock.Activation.RELU), Kernel.JAVA, DataType.DOUBLE, Tensors.rng(5));
        INDArray x = GradientCheck.random(3, 1.0, 2, 3, 8);
        INDArray mask = GradientCheck.random(4, 1.0, 2, 3, 3);
        double worst = GradientCheck.checkLayer(new Masked(blk, mask), x, 6,
                MultiHeadSelfAttentionTest.ATTENTION_TOLERANCE);
        assertTrue(worst < 1e-5, "worst " + worst);
        INDArray x2 = GradientCheck.random(7, 1.0, 3, 5, 8);
        INDArray causal = MultiHeadSelfAttentionTest.sharedMask(5, DataType.DOUBLE);
        double[] ref = Naive.block(blk, Naive.flat(x2), Naive.flat(causal), false, 3, 5);
        double diff = Naive.maxAbsDiff(ref, Naive.flat(blk.forward(x2, causal, Arena.none()).output()));
        assertTrue(diff < 1e-12, "max difference " + diff);
        // and it is a different function from the GELU block with the same weights
        TransformerBlock gelu = new TransformerBlock("blk", new TransformerBlock.Config(8, 2, 12), Kernel.JAVA,
                DataType.DOUBLE, Tensors.rng(5));
        double gap = Naive.maxAbsDiff(ref, Naive.flat(gelu.forward(x2, causal, Arena.none()).output()));
        assertTrue(gap > 1e-3, "ReLU and GELU blocks agree to " + gap);
    }

    @Test
    void arenaReuseGivesIdenticalResultsAndGradients() {
        TransformerBlock blk = new TransformerBlock(TransformerBlock.Config.small(), DataType.FLOAT, 11L);
        INDArray x = GradientCheck.random(1, 1.0, 4, 5, 32).castTo(DataType.FLOAT);
        INDArray dy = GradientCheck.random(2, 1.0, 4, 5, 32).castTo(DataType.FLOAT);
        Arena arena = Arena.create();
        TransformerBlock.Cache c = blk.forward(x, arena);
        INDArray y1 = c.output().dup();
        INDArray dx1 = blk.backward(c, dy, arena).dup();
        INDArray dW1 = blk.fc1().weight().grad().dup();
        int size = arena.size();
        for (int pass = 0; pass < 2; pass++) {
            arena.reset();
            blk.params().forEach(Param::zeroGrad);
            c = blk.forward(x, arena);
            INDArray dx2 = blk.backward(c, dy, arena);
            assertEquals(size, arena.size());
            assertEquals(y1, c.output());
            assertEquals(dx1, dx2);
            assertEquals(dW1, blk.fc1().weight().grad());
        }
    }

    @Test
    void paramsAreNamedAndOrdered() {
        TransformerBlock blk = new TransformerBlock(TransformerBlock.Config.small(), DataType.FLOAT, 1L);
        assertEquals(List.of("block.ln1.gain", "block.ln1.bias", "block.attn.qkv.weight", "block.attn.qkv.bias",
                "block.attn.out.weight", "block.attn.out.bias", "block.ln2.gain", "block.ln2.bias",
                "block.fc1.weight", "block.fc1.bias", "block.fc2.weight", "block.fc2.bias"),
                blk.params().stream().map(Param::name).toList());
        // 2*32 + 32*96 + 96 + 32*32 + 32 + 2*32 + 32*128 + 128 + 128*32 + 32 = 12704
        assertEquals(12704, blk.params().stream().mapToLong(Param::size).sum());
    }

    @Test
    void configValidation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TransformerBlock.Config(32, 3, 128));
        assertEquals("heads must divide d = 32, got 3", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new TransformerBlock.Config(32, 1, 0));
        assertEquals("ff must be >= 1, got 0", e.getMessage());
        TransformerBlock blk = new TransformerBlock(TransformerBlock.Config.small(), DataType.FLOAT, 1L);
        e = assertThrows(IllegalArgumentException.class,
                () -> blk.forward(GradientCheck.random(1, 1, 2, 3, 32), Arena.none()));
        assertEquals("input must have data type FLOAT (the parameters' type), got DOUBLE", e.getMessage());
    }
}
