package io.regheads.heads.model;

import io.regheads.core.check.Checks;
import io.regheads.core.loss.Loss;
import io.regheads.losses.Losses;
import io.regheads.losses.NumberTokenLoss;
import io.regheads.losses.TargetDistribution;
import java.util.Locale;

/**
 * Parses loss expressions such as {@code "ce"}, {@code "ce+0.3*ntl-was"}, {@code "ce+0.3*ntl-was-cdf+0.1*gce:0.5"}
 * or {@code "ce+0.3*ntl-was:place"} into a {@link Loss}.
 *
 * <p>Grammar (case and spaces ignored):
 * <pre>
 *   expression = term { "+" term }
 *   term       = [ number "*" ] name [ ":" option { "," option } ]
 *   option     = number | "place" | "number" | "all"
 * </pre>
 * Names: {@code ce}, {@code mse} (alias of {@code ntl-mse}: on a scalar output it is the squared error),
 * {@code mae} / {@code ntl-mae}, {@code huber} / {@code ntl-huber} (number option: delta, default 1), {@code
 * ntl-was}, {@code ntl-was-cdf} (number option: sigma, see below), {@code gce} (number option: sigma, default 0.5, the
 * NTL paper's best), {@code crps} (the continuous ranked probability score in closed form, e.g. {@code
 * ce+0.5*crps}) and {@code pinball} (the quantile head's pinball loss averaged over its levels).
 *
 * <p>{@code ntl-was-cdf} compares the predicted distribution over the number tokens with a target distribution: the
 * point mass at the label without a number, or with one, {@code ntl-was-cdf:sigma}, the discrete Gaussian of width
 * sigma (token-value units) around the label, {@code r_j ~ exp(-(v_j - y)^2 / (2 sigma^2))}: the same smoothed target
 * as {@code gce:sigma} ({@code TargetDistribution.gaussian}). The NTL paper's pairing of GCE with NTL-WAS-CDF on one
 * smoothed target is {@code gce:0.5+0.3*ntl-was-cdf:0.5}.
 *
 * <p>Word options of the NTL terms (decoder heads; see {@code NumberTokenLoss}): {@code place} weights each digit
 * by its place value {@code B^-k}; {@code number} (ntl-mse, ntl-mae, ntl-huber, mse, mae, huber) penalises the
 * expected value of the whole number; {@code all} lets NTL act on the exponent digits of unnormalized tokens too
 * (by default it acts on the mantissa digits only). Examples: {@code ce+0.3*ntl-was:place},
 * {@code ce+0.1*ntl-mse:number}, {@code ce+0.3*ntl-huber:0.5,number}, {@code ce+0.3*ntl-was:all}.
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
        String word = null;
        int colon = term.indexOf(':');
        if (colon >= 0) {
            name = term.substring(0, colon);
            for (String opt : term.substring(colon + 1).split(",", -1)) {
                if (opt.equals("place") || opt.equals("number") || opt.equals("all")) {
                    Checks.require(word == null, "loss term '%s' in '%s' has two of place, number, all", term, spec);
                    word = opt;
                } else {
                    Checks.require(param == null, "loss term '%s' in '%s' has two numbers", term, spec);
                    param = number(opt, spec);
                }
            }
        }
        Loss base = base(name, param, term, spec);
        if (word == null) {
            return base;
        }
        Checks.require(base instanceof NumberTokenLoss, "loss term '%s' in '%s': %s applies to NTL terms only", term,
                spec, word);
        NumberTokenLoss ntl = (NumberTokenLoss) base;
        return switch (word) {
            case "place" -> ntl.placeWeighted();
            case "all" -> ntl.onAllDigits();
            default -> ntl.numberLevel();
        };
    }

    private static Loss base(String name, Double param, String term, String spec) {
        if (param != null) {
            Checks.require(name.equals("huber") || name.equals("ntl-huber") || name.equals("gce")
                    || name.equals("ntl-was-cdf"),
                    "loss term '%s' in '%s' takes no number (only huber, ntl-huber, ntl-was-cdf and gce do)", term, spec);
        }
        return switch (name) {
            case "ce" -> Losses.ce();
            case "mse", "ntl-mse" -> Losses.ntlMse();
            case "mae", "ntl-mae" -> Losses.ntlMae();
            case "huber", "ntl-huber" -> Losses.ntlHuber(param == null ? 1.0 : param);
            case "ntl-was" -> Losses.ntlWas();
            case "ntl-was-cdf" -> param == null ? Losses.ntlWasCdf()
                    : Losses.ntlWasCdf(TargetDistribution.gaussian(param));
            case "gce" -> Losses.gce(param == null ? 0.5 : param);
            case "crps" -> Losses.crps();
            case "pinball" -> Losses.pinball();
            default -> throw new IllegalArgumentException("loss term '" + term + "' in '" + spec
                    + "' is unknown; use ce, mse, mae, huber[:delta], ntl-mse, ntl-mae, ntl-huber[:delta], ntl-was, ntl-was-cdf[:sigma],"
                    + " gce[:sigma], crps, pinball, with :place, :number or :all on NTL terms");
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
