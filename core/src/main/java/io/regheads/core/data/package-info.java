/**
 * Regression data: {@link io.regheads.core.data.Dataset} (features x {@code [N, D]}, targets y {@code [N]},
 * column names), {@link io.regheads.core.data.CsvLoader} (header row, target = last or named column; through Apache
 * Commons CSV: quotes, byte-order mark, detected delimiter), {@link
 * io.regheads.core.data.Folds} (the 10-fold files of the UCI protocol, {@code splits/<name>/fold.txt}), and the
 * scalers fitted on training rows only: {@link io.regheads.core.data.StandardScaler} for x and {@link
 * io.regheads.core.data.MinMaxScaler} for y (with the log-Jacobian that converts densities back to original
 * units), and {@link io.regheads.core.data.TargetCheck}, which refuses targets min-max scaling cannot carry (extreme
 * values, an overflowing range) and warns about heavy tails; {@link io.regheads.core.data.TargetScaler} maps y to a
 * head's unit interval by a {@link io.regheads.core.data.TargetTransform} (min-max, ROBUST median/IQR bounds with
 * clipping, or LOG) and the predictions back.
 *
 * <p>Typical UCI protocol for split k:
 * <pre>{@code
 * Dataset all = CsvLoader.load(root.resolve("yacht.csv"));
 * Folds.Split s = Folds.forDataset(root, "yacht").split(all, k);
 * StandardScaler xs = StandardScaler.fit(s.train());
 * MinMaxScaler ys = MinMaxScaler.fit(s.train());
 * Dataset train = ys.transform(xs.transform(s.train()));
 * Dataset test = ys.transform(xs.transform(s.test()));
 * }</pre>
 *
 * <p>All types here are immutable and thread-safe.
 */
package io.regheads.core.data;
