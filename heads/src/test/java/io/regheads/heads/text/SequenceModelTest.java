package io.regheads.heads.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.regheads.core.head.PointEstimate;
import io.regheads.core.loss.Loss;
import io.regheads.core.nn.Arena;
import io.regheads.core.nn.Param;
import io.regheads.core.nn.TransformerBlock;
import io.regheads.core.testing.GradientCheck;
import io.regheads.heads.decoder.DecoderHead;
import io.regheads.heads.text.SequenceEncoderConfig.NumberEmbedding;
import io.regheads.heads.xval.XValHead;
import io.regheads.heads.xval.XValSpec;
import io.regheads.losses.Losses;
import io.regheads.tokenizers.UnnormalizedTokenizer;
import io.regheads.tokenizers.text.CharVocabulary;
import io.regheads.tokenizers.text.XValCodec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.factory.Nd4j;

/** The whole text-to-number model: encoder + head + loss, through the trainer's packed rows. */
class SequenceModelTest {

    /**
     * Losses of size ~2 with central steps of 1e-6 carry rounding noise of about 1e-16 * 2 / 1e-6 = 2e-10 in the
     * numeric gradient; attention weights deep in the encoder have gradients of ~1e-8, so the absolute floor of the
     * relative error is 1e-4 (as core's layer tests): gradients above 1e-4 are still held to 1e-5 relative error.
     */
    static final GradientCheck.Tolerance NOISE_FLOORED = new GradientCheck.Tolerance(1e-6, 1e-5, 1e-4);

    static SequenceEncoder encoder(NumberEmbedding numbers) {
        return new SequenceEncoder(new SequenceEncoderConfig(CharVocabulary.SIZE, 6, new TransformerBlock.Config(4, 2,
                8), 1, numbers, CharVocabulary.NUM, 0, 3), DataType.DOUBLE);
    }

    static INDArray rows() {
        return Nd4j.createFromArray(SequenceBatch.ofXVal(List.of(XValCodec.encode("(1.5*-2)"),
                XValCodec.encode("0.3+")), 6).toRows());
    }

    static void check(SequenceModel model, double[] y) {
        INDArray x = rows();
        List<GradientCheck.Variable> vars = new ArrayList<>();
        for (Param p : model.params()) {
            vars.add(new GradientCheck.Variable(p.name(), p.value(), p::grad));
        }
        double worst = GradientCheck.check(() -> model.evaluate(x, y, Arena.none()), () -> {
            model.params().forEach(Param::zeroGrad);
            model.trainStep(x, y, Arena.none());
        }, vars, NOISE_FLOORED);
        assertTrue(worst < 1e-5, "worst " + worst);
    }

    @Test
    void xvalModelPassesTheGradientCheckWithScaledTargets() {
        XValHead head = XValSpec.paper(4).build(4, 5, DataType.DOUBLE);
        check(new SequenceModel(encoder(NumberEmbedding.XVAL), head, Losses.ce(), 1.0, 2.0, PointEstimate.MEAN),
                new double[] {-3, 0.3});
    }

    @Test
    void decoderModelPassesTheGradientCheckWithCePlusNtlWas() {
        DecoderHead head = new DecoderHead(UnnormalizedTokenizer.of(10, 1, 2), 4,
                new TransformerBlock.Config(4, 1, 8), 1, 5, DataType.DOUBLE);
        Loss loss = Losses.ce().plus(0.3, Losses.ntlWas());
        check(new SequenceModel(encoder(NumberEmbedding.NONE), head, loss, 0, 1, PointEstimate.GREEDY),
                new double[] {-3, 0.3});
    }

    @Test
    void predictUndoesTheTargetScaling() {
        XValHead head = XValSpec.paper(4).build(4, 5, DataType.DOUBLE);
        SequenceModel m = new SequenceModel(encoder(NumberEmbedding.XVAL), head, Losses.ce(), 10.0, 3.0,
                PointEstimate.MEAN);
        INDArray phi = m.encoder().forward(SequenceBatch.fromRows(rows(), 6), Arena.none()).phi();
        double[] raw = head.predict(phi);
        double[] p = m.predict(rows().toDoubleMatrix());
        for (int i = 0; i < 2; i++) {
            assertEquals(raw[i] * 3.0 + 10.0, p[i], 1e-12);
        }
    }
}
