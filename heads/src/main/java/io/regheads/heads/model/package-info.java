/**
 * The model API: the entry point for tabular data. A {@link io.regheads.heads.model.RegressionModel} is an MLP
 * encoder, a head and a loss, with the scaling of x and y done for you; it trains ({@code fit}), predicts a
 * {@link io.regheads.core.dist.PredictiveDistribution} per row in the original units of y ({@code predict}, columns
 * matched by name), scores itself ({@code evaluate}: NLL, CRPS, RMSE, coverage), calibrates ({@code
 * calibrateTemperature}, {@code calibrateIntervals}: split-conformal intervals) and saves to one file ({@code
 * save}, {@code load}).
 *
 * <p>Also here: {@link io.regheads.heads.model.ModelConfig} (encoder, head spec, loss, trainer and target settings;
 * {@code ModelConfig.defaults(spec)}), {@link io.regheads.heads.model.HeadSelection} (a head chosen by held-out
 * NLL or CRPS), {@link io.regheads.heads.model.HeadRegistry} (head specs by name, as model files store them) and
 * {@link io.regheads.heads.model.LossSpec} (loss expressions such as {@code ce+0.3*ntl-was}).
 *
 * <pre>{@code
 * Dataset train = CsvLoader.load(Path.of("train.csv"), "price");
 * RegressionModel m = RegressionModel.create(ModelConfig.defaults(new MixtureSpec(10)), train.features());
 * m.fit(train);
 * PredictiveDistribution d = m.predict(CsvLoader.load(Path.of("test.csv"), "price"));
 * double[] median = d.median();
 * }</pre>
 */
package io.regheads.heads.model;
