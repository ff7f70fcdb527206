/**
 * The xVal number head: an MLP with one hidden layer of the embedding width and a scalar output (MSE), optionally
 * with a learned standard deviation (Gaussian NLL); its distribution is a Gaussian around the prediction.
 *
 * <p>Central types: {@link io.regheads.heads.xval.XValHead} and its spec, {@link io.regheads.heads.xval.XValSpec},
 * which is its whole configuration ({@code spec.build(D, seed, type)}, for the model API and on its own). Shapes: B
 * batch, D features (the encoder width), H hidden width.
 *
 * <p>Reference: Golkar et al., "xVal: A Continuous Number Encoding for Large Language Models"
 * (arXiv:2310.02989), section 2.2. Pairs with {@link io.regheads.heads.text.SequenceEncoder}.
 */
package io.regheads.heads.xval;
