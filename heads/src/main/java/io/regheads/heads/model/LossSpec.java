package io.regheads.heads.model;

import io.regheads.core.internal.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.losses.Losses;
import java.util.Locale;

/**
 * Parses loss expressions such as {@code "ce"}, {@code "ce+0.3*ntl-was"} or {@code "ce+0.3*ntl-was-cdf+0.1*gce:0.5"}
 * into a {@link Loss}: terms joined by {@code +}, each an optional {@code weight*} and a name with an optional
 * {@code :parameter}.
 *
 * <p>Names: {@code ce}, {@code mse} (alias of {@code ntl-mse}: on a scalar output it is the squared error),
 * {@code mae} / {@code ntl-mae}, {@code huber[:delta]} / {@code ntl-huber[:delta]} (delta 1), {@code ntl-was},
 * {@code ntl-was-cdf}, {@code gce[:sigma]} (sigma 0.5, the NTL paper's best).
 */
public final class LossSpec {
    private LossSpec() {}

    /**
     * @throws IllegalArgumentException naming the term that cannot be read
     */
    public static Loss parse(String spec) {
        Checks.require(spec != null && !spec.isBlank(), "loss must be a non-empty expression such as ce+0.3*ntl-was, got '%s'", spec);
        Loss total = null;
        for (String raw : spec.toLowerCase(Locale.ROOT).replace(" ", "").split("\\+")) {
            Checks.require(!raw.isEmpty(), "loss '%s' has an empty term", spec);
            double weight = 1;
            String term = raw;
            int star = raw.indexOf('*');
            if (star >= 0) {
                weight = number(raw.substring(0, star), spec);
                term = raw.substring(star + 1);
            }
            Loss one = single(term, spec);
            total = total == null ? (weight == 1 ? one : one.times(weight)) : total.plus(weight, one);
        }
        return total;
    }

    private static Loss single(String term, String spec) {
        String name = term;
        Double param = null;
        int colon = term.indexOf(':');
        if (colon >= 0) {
            name = term.substring(0, colon);
            param = number(term.substring(colon + 1), spec);
        }
        return switch (name) {
            case "ce" -> Losses.ce();
            case "mse", "ntl-mse" -> Losses.ntlMse();
            case "mae", "ntl-mae" -> Losses.ntlMae();
            case "huber", "ntl-huber" -> Losses.ntlHuber(param == null ? 1.0 : param);
            case "ntl-was" -> Losses.ntlWas();
            case "ntl-was-cdf" -> Losses.ntlWasCdf();
            case "gce" -> Losses.gce(param == null ? 0.5 : param);
            default -> throw new IllegalArgumentException("loss term '" + term + "' in '" + spec
                    + "' is unknown; use ce, mse, mae, huber[:delta], ntl-mse, ntl-mae, ntl-huber[:delta], ntl-was, ntl-was-cdf, gce[:sigma]");
        };
    }

    private static double number(String s, String spec) {
        try {
            double v = Double.parseDouble(s);
            Checks.require(Double.isFinite(v), "loss '%s' has a non-finite number '%s'", spec, s);
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss '" + spec + "' has '" + s + "' where a number belongs");
        }
    }
}
