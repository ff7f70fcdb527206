package io.regheads.app.cli;

import io.regheads.core.internal.Checks;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Streams a numeric CSV file (a header row, then rows of numbers separated by commas) block by block into
 * caller-owned arrays, so files far larger than the heap can be read with bounded memory. Blank lines are skipped;
 * header names may be double-quoted.
 *
 * <p>Numbers are parsed without creating strings: plain decimals with at most 15 significant digits and a decimal
 * exponent within +-22 (what data files usually hold, e.g. {@code -0.123456789} or {@code 1.5e-3}) by one exact
 * multiplication or division, which gives the correctly rounded double (Clinger's fast path); anything else (more
 * digits, larger exponents, {@code NaN}, {@code Infinity}) through {@link Double#parseDouble}. Either way the value
 * equals {@code Double.parseDouble} of the cell.
 *
 * <p>Not thread-safe; close it (or read to the end and close) to release the file.
 */
final class NumericCsvReader implements Closeable {
    /** Exact powers of ten 10^0 .. 10^22 (all representable in a double). */
    private static final double[] POW10 = new double[23];

    static {
        double p = 1;
        for (int i = 0; i < POW10.length; i++) {
            POW10[i] = p;
            p *= 10;
        }
    }

    private final Path file;
    private final BufferedReader in;
    private final List<String> header;
    private long line; // 1-based number of the last line read

    /**
     * Opens {@code file} and reads its header.
     *
     * @throws IllegalArgumentException if the file is missing, empty, or its header names fewer than one column
     */
    NumericCsvReader(Path file) {
        this.file = Checks.notNull("file", file);
        Checks.require(Files.isRegularFile(file), "--data: file not found: %s", file);
        try {
            this.in = Files.newBufferedReader(file, StandardCharsets.UTF_8);
            String first;
            do {
                first = in.readLine();
                line++;
            } while (first != null && first.isBlank());
            if (first == null) {
                in.close();
                throw new IllegalArgumentException(file + " is empty: a header row is needed");
            }
            List<String> h = new ArrayList<>();
            for (String c : first.split(",", -1)) {
                String s = c.strip();
                h.add(s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s);
            }
            this.header = Collections.unmodifiableList(h);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** The column names, in file order. */
    List<String> header() {
        return header;
    }

    /**
     * Reads up to {@code dst.length} rows; row r's cells go to {@code dst[r][0, columns)}.
     *
     * @param dst rows of at least {@code header().size()} elements each
     * @return rows read; 0 at the end of the file
     * @throws IllegalArgumentException on a row with a different number of cells or a cell that is not a number,
     *                                  naming the line and the column
     */
    int read(double[][] dst) {
        int cols = header.size();
        int n = 0;
        try {
            while (n < dst.length) {
                String s = in.readLine();
                if (s == null) {
                    break;
                }
                line++;
                if (s.isBlank()) {
                    continue;
                }
                double[] row = dst[n];
                int at = 0;
                int c = 0;
                int len = s.length();
                while (true) {
                    int end = s.indexOf(',', at);
                    if (end < 0) {
                        end = len;
                    }
                    if (c >= cols) {
                        throw new IllegalArgumentException(file + " line " + line + ": expected " + cols
                                + " cells as in the header, got more");
                    }
                    row[c++] = parse(s, at, end);
                    if (end == len) {
                        break;
                    }
                    at = end + 1;
                }
                if (c != cols) {
                    throw new IllegalArgumentException(file + " line " + line + ": expected " + cols
                            + " cells as in the header, got " + c);
                }
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return n;
    }

    /** The number in {@code s[from, to)} (surrounding blanks allowed). */
    private double parse(String s, int from, int to) {
        while (from < to && s.charAt(from) == ' ') {
            from++;
        }
        while (to > from && s.charAt(to - 1) == ' ') {
            to--;
        }
        double v = fastParse(s, from, to);
        if (v == v) {
            return v;
        }
        try {
            return Double.parseDouble(s.substring(from, to)); // the general case (and NaN written as such)
        } catch (NumberFormatException e) {
            int col = 0;
            for (int i = 0; i < from; i++) {
                if (s.charAt(i) == ',') {
                    col++;
                }
            }
            throw new IllegalArgumentException(file + " line " + line + ", column '" + header.get(col)
                    + "': not a number: '" + s.substring(from, to) + "'");
        }
    }

    /**
     * Clinger's fast path: {@code [sign] digits [. digits] [(e|E) [sign] digits]} with at most 15 significant
     * digits and a resulting power of ten within +-22 is {@code m * 10^e} or {@code m / 10^-e}, one correctly
     * rounded operation on exact operands. NaN (not a value) when the cell is not of that form.
     */
    static double fastParse(String s, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        long m = 0;
        int digits = 0; // significant digits taken into m
        int scale = 0; // decimal exponent adjustment from the fraction
        boolean any = false;
        for (; i < to; i++) {
            char ch = s.charAt(i);
            if (ch < '0' || ch > '9') {
                break;
            }
            any = true;
            if (m != 0 || ch != '0') {
                if (++digits > 15) {
                    return Double.NaN;
                }
            }
            m = m * 10 + (ch - '0');
        }
        if (i < to && s.charAt(i) == '.') {
            for (i++; i < to; i++) {
                char ch = s.charAt(i);
                if (ch < '0' || ch > '9') {
                    break;
                }
                any = true;
                if (m != 0 || ch != '0') {
                    if (++digits > 15) {
                        return Double.NaN;
                    }
                }
                m = m * 10 + (ch - '0');
                scale--;
            }
        }
        if (!any) {
            return Double.NaN;
        }
        if (i < to && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            boolean expNegative = false;
            if (i < to && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
                expNegative = s.charAt(i) == '-';
                i++;
            }
            int e = 0;
            boolean expDigits = false;
            for (; i < to; i++) {
                char ch = s.charAt(i);
                if (ch < '0' || ch > '9' || e > 1000) {
                    return Double.NaN;
                }
                e = e * 10 + (ch - '0');
                expDigits = true;
            }
            if (!expDigits) {
                return Double.NaN;
            }
            scale += expNegative ? -e : e;
        }
        if (i != to) {
            return Double.NaN;
        }
        double v;
        if (m == 0) {
            v = 0;
        } else if (scale >= 0 && scale <= 22) {
            v = m * POW10[scale];
        } else if (scale < 0 && scale >= -22) {
            v = m / POW10[-scale];
        } else {
            return Double.NaN;
        }
        return negative ? -v : v;
    }

    /** Lines read so far (header and blank lines included). */
    long linesRead() {
        return line;
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close " + file + ": " + e.getMessage(), e);
        }
    }
}
