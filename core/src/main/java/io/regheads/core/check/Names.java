package io.regheads.core.check;

import java.util.Collection;
import java.util.Locale;

/** "Did you mean" suggestions for misspelt names (columns, heads, options, settings). Stateless and thread-safe. */
public final class Names {
    private Names() {}

    /**
     * {@code "; did you mean 'price'?"} for the candidate closest to {@code name}, or empty when none is close: equal
     * ignoring case, or (for names of 2 characters or more) within an edit distance of a third of the name's length,
     * at least 1.
     *
     * @param name       the name given
     * @param candidates the names that exist
     * @return the suggestion, starting with {@code "; "}, or {@code ""}
     */
    public static String didYouMean(String name, Collection<String> candidates) {
        String best = closest(name, candidates);
        return best == null ? "" : "; did you mean '" + best + "'?";
    }

    /** The candidate closest to {@code name} as {@link #didYouMean} decides, or null. */
    public static String closest(String name, Collection<String> candidates) {
        if (name == null || candidates == null) {
            return null;
        }
        String lower = name.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            if (c == null) {
                continue;
            }
            int d = c.toLowerCase(Locale.ROOT).equals(lower) ? 0 : distance(lower, c.toLowerCase(Locale.ROOT)) + 1;
            if (d < bestDistance) {
                bestDistance = d;
                best = c;
            }
        }
        // distances above are shifted by 1 so that a match ignoring case is 0
        int allowed = name.length() < 2 ? 0 : Math.max(1, name.length() / 3) + 1;
        return bestDistance <= allowed ? best : null;
    }

    /** Levenshtein distance (insertions, deletions and substitutions of one character). */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
