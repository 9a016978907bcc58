package io.drover.driver.api.schema;

import java.math.BigDecimal;
import java.time.Duration;

/**
 * Parses durations in Go's {@code time.ParseDuration} syntax: an optional sign, then one or more decimal
 * numbers each with a unit ({@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}),
 * e.g. {@code 250ms}, {@code 1.5s}, {@code 1m30s}, {@code 24h}; {@code 0} alone needs no unit. The range is
 * Go's: what fits a signed 64-bit count of nanoseconds. Pure, thread-safe. Part of the driver SDK so that a
 * plugin (which depends on the API only) parses durations exactly as Drover's job files do.
 */
public final class GoDurations {
    private GoDurations() {}

    /**
     * @return the duration, negative when written with {@code -}
     * @throws IllegalArgumentException with a user-facing message when the text is not a Go duration
     */
    public static Duration parse(String text) {
        if (text == null || text.isEmpty()) {
            throw invalid(text);
        }
        int i = 0;
        boolean negative = false;
        if (text.charAt(0) == '-' || text.charAt(0) == '+') {
            negative = text.charAt(0) == '-';
            i++;
        }
        if (text.substring(i).equals("0")) {
            return Duration.ZERO;
        }
        if (i == text.length()) {
            throw invalid(text);
        }
        long total = 0;
        while (i < text.length()) {
            int start = i;
            long whole = 0;
            boolean overflow = false;
            while (i < text.length() && isDigit(text.charAt(i))) {
                if (whole > (Long.MAX_VALUE - 9) / 10) {
                    overflow = true;
                } else {
                    whole = whole * 10 + (text.charAt(i) - '0');
                }
                i++;
            }
            boolean hasWhole = i > start;
            String fraction = "";
            if (i < text.length() && text.charAt(i) == '.') {
                int f = ++i;
                while (i < text.length() && isDigit(text.charAt(i))) {
                    i++;
                }
                fraction = text.substring(f, i);
            }
            if (!hasWhole && fraction.isEmpty()) {
                throw invalid(text);
            }
            int u = i;
            while (i < text.length() && !isDigit(text.charAt(i)) && text.charAt(i) != '.') {
                i++;
            }
            String unit = text.substring(u, i);
            if (unit.isEmpty()) {
                throw new IllegalArgumentException("missing unit in duration \"" + text
                        + "\" (use ns, us, ms, s, m or h, e.g. \"5s\")");
            }
            long scale = scale(unit, text);
            if (overflow || whole > Long.MAX_VALUE / scale) {
                throw outOfRange(text);
            }
            long nanos = whole * scale + fractionNanos(fraction, scale);
            if (nanos < 0 || total > Long.MAX_VALUE - nanos) {
                throw outOfRange(text);
            }
            total += nanos;
        }
        return Duration.ofNanos(negative ? -total : total);
    }

    private static long fractionNanos(String digits, long scale) {
        if (digits.isEmpty()) {
            return 0;
        }
        String kept = digits.length() > 30 ? digits.substring(0, 30) : digits;
        return new BigDecimal("0." + kept).multiply(BigDecimal.valueOf(scale)).longValue();
    }

    private static long scale(String unit, String text) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs", "μs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new IllegalArgumentException("unknown unit \"" + unit + "\" in duration \"" + text
                    + "\" (use ns, us, ms, s, m or h)");
        };
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static IllegalArgumentException invalid(String text) {
        return new IllegalArgumentException("invalid duration \"" + text + "\" (e.g. \"250ms\", \"5s\", \"1m30s\")");
    }

    private static IllegalArgumentException outOfRange(String text) {
        return new IllegalArgumentException("duration \"" + text + "\" is out of range");
    }
}
