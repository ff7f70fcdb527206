/**
 * The decoding paper's other experiments as commands of {@code regheads} (Song and Bahri, "Decoding-based
 * Regression", arXiv:2501.19383): each is an experiment class with a {@code Config} record, a {@code run} method and
 * a {@code Result} record of the numbers (what the tests assert on), plus a picocli command that prints the table and
 * writes a PNG ({@link io.regheads.app.experiments.Figures}) and a JSON of the numbers.
 *
 * <ul>
 *   <li>{@link io.regheads.app.experiments.DensityExperiment} ({@code density}, Figs. 8 and 14): samples of the
 *       unnormalized decoder at temperature 1, top-k, top-p and low temperature, and of mixture, histogram and
 *       pointwise heads, against a known conditional density; KS and W1 distances per x slice
 *       ({@link io.regheads.app.experiments.SampleDistances}).</li>
 *   <li>{@link io.regheads.app.experiments.CurveFitExperiment} ({@code curve-fit}, Fig. 4): noise-free 1-D functions
 *       with plenty of data.</li>
 *   <li>{@link io.regheads.app.experiments.BbobExperiment} ({@code bbob}, Table 5 and Fig. 12): Kendall tau on BBOB
 *       functions ({@link io.regheads.app.experiments.bbob}) as the input dimension grows.</li>
 *   <li>{@link io.regheads.app.experiments.DataEfficiencyExperiment} ({@code data-efficiency}, Figs. 7 and 11).</li>
 *   <li>{@link io.regheads.app.experiments.HammingExperiment} ({@code hamming}, Fig. 13).</li>
 *   <li>{@link io.regheads.app.experiments.DecoderSizeExperiment} ({@code decoder-size}, Fig. 9).</li>
 *   <li>{@link io.regheads.app.experiments.RepeatMeanExperiment} ({@code repeat-mean}, Fig. 10).</li>
 * </ul>
 *
 * <p>{@link io.regheads.app.experiments.Net} trains an encoder with a head the experiments need direct access to (a
 * decoder's sampling controls, a tokenizer without a {@code HeadSpec}, raw y); the other heads go through {@code
 * RegressionModel}. Shapes: x {@code [B][D]}, phi {@code [B, W]} (W the encoder width), samples {@code [n][B]}.
 */
package io.regheads.app.experiments;
