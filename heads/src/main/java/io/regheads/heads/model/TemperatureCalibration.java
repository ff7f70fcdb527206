package io.regheads.heads.model;

import java.util.Locale;

/**
 * The outcome of {@link RegressionModel#calibrateTemperature}.
 *
 * @param temperature the temperature now kept with the model
 * @param rule        the score it minimised
 * @param rows        the held-out rows it was fitted on
 * @param before      the rule's mean score on them before
 * @param after       and with the temperature
 */
public record TemperatureCalibration(double temperature, ScoringRule rule, int rows, double before, double after) {
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "temperature %.4g on %d rows: %s %.4g -> %.4g", temperature, rows, rule,
                before, after);
    }
}
