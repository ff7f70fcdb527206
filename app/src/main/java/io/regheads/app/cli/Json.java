package io.regheads.app.cli;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A minimal JSON writer for the {@code --json} outputs: maps (insertion order kept), lists, strings, numbers,
 * booleans, {@code null}, {@code double[]}, {@code int[]} and object arrays such as {@code double[][]} (as nested
 * lists). Non-finite numbers are written as {@code null}
 * (JSON has no NaN). Example: {@code Json.write(Map.of("a", 1.5))} gives {@code {"a":1.5}}. {@link #readFlat}
 * reads back one flat object (the lines of a {@code uci} results file).
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
        } else if (v instanceof Object[] a) {
            append(sb, java.util.Arrays.asList(a));
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

    /**
     * Parses one flat JSON object whose values are strings, numbers, booleans or {@code null} (no nested objects or
     * arrays): numbers come back as {@code Double}, {@code null} as {@code null}. Example: {@code {"a":1.5,"b":"x"}}
     * gives {@code {a=1.5, b=x}}.
     *
     * @throws IllegalArgumentException on anything else, with the offset
     */
    static Map<String, Object> readFlat(String text) {
        Reader r = new Reader(text);
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        r.skip();
        r.expect('{');
        r.skip();
        if (r.peek() == '}') {
            r.pos++;
            r.end();
            return m;
        }
        while (true) {
            r.skip();
            String key = r.string();
            r.skip();
            r.expect(':');
            r.skip();
            m.put(key, r.value());
            r.skip();
            char c = r.next();
            if (c == '}') {
                r.end();
                return m;
            }
            if (c != ',') {
                throw r.error("expected ',' or '}'");
            }
        }
    }

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s == null ? "" : s;
        }

        char peek() {
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            return s.charAt(pos);
        }

        char next() {
            char c = peek();
            pos++;
            return c;
        }

        void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        void expect(char c) {
            if (next() != c) {
                pos--;
                throw error("expected '" + c + "'");
            }
        }

        void end() {
            skip();
            if (pos != s.length()) {
                throw error("unexpected text after the object");
            }
        }

        Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            for (String word : new String[] {"null", "true", "false"}) {
                if (s.startsWith(word, pos)) {
                    pos += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = pos;
            while (pos < s.length() && "+-.eE0123456789".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            try {
                return Double.valueOf(s.substring(start, pos));
            } catch (NumberFormatException e) {
                pos = start;
                throw error("expected a string, number, true, false or null");
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("bad unicode escape");
                        }
                        sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw error("bad escape '\\" + e + "'");
                }
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
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
