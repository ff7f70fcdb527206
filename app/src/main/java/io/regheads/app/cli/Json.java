package io.regheads.app.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the {@code --json} outputs: maps (insertion order kept), lists, strings, numbers,
 * booleans, {@code null}, {@code double[]} and {@code int[]}. Non-finite numbers are written as {@code null}
 * (JSON has no NaN). Example: {@code Json.write(Map.of("a", 1.5))} gives {@code {"a":1.5}}.
 *
 * <p>Stateless and thread-safe.
 */
public final class Json {
    private Json() {}

    /** The JSON text of {@code value}. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, value);
        return sb.toString();
    }

    private static void append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            string(sb, s);
        } else if (v instanceof Boolean b) {
            sb.append(b);
        } else if (v instanceof Double || v instanceof Float) {
            number(sb, ((Number) v).doubleValue());
        } else if (v instanceof Number n) {
            sb.append(n.longValue());
        } else if (v instanceof double[] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i == 0 ? "" : ",");
                number(sb, a[i]);
            }
            sb.append(']');
        } else if (v instanceof int[] a) {
            sb.append('[');
            for (int i = 0; i < a.length; i++) {
                sb.append(i == 0 ? "" : ",").append(a[i]);
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                string(sb, String.valueOf(e.getKey()));
                sb.append(':');
                append(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                append(sb, l.get(i));
            }
            sb.append(']');
        } else {
            string(sb, v.toString());
        }
    }

    private static void number(StringBuilder sb, double d) {
        if (Double.isFinite(d)) {
            sb.append(d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format(Locale.ROOT, "%.1f", d) : Double.toString(d));
        } else {
            sb.append("null");
        }
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
