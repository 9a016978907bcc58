package io.drover.plugins.mock;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;

/**
 * Parses durations in Go's {@code time.ParseDuration} syntax ({@code "250ms"}, {@code "1m30s"}, {@code "1.5h"},
 * {@code "0"}). The plugin keeps its own parser: plugins depend on the driver API only, never on Drover's core.
 * Pure and thread-safe.
 */
final class GoDurations {
    private static final Map<String, Long> UNIT_NANOS = Map.of(
            "ns", 1L, "us", 1_000L, "µs", 1_000L, "μs", 1_000L, "ms", 1_000_000L,
            "s", 1_000_000_000L, "m", 60_000_000_000L, "h", 3_600_000_000_000L);

    private GoDurations() {}

    /** @throws IllegalArgumentException when {@code text} is not a Go duration */
    static Duration parse(String text) {
        String s = text.trim();
        if (s.isEmpty()) {
            throw new IllegalArgumentException("empty duration");
        }
        boolean negative = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            negative = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        BigDecimal total = BigDecimal.ZERO;
        int i = 0;
        while (i < s.length()) {
            int numStart = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(numStart, i);
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            Long nanos = UNIT_NANOS.get(unit);
            if (number.isEmpty() || number.equals(".") || nanos == null) {
                throw new IllegalArgumentException("invalid duration \"" + text + "\"");
            }
            try {
                total = total.add(new BigDecimal(number).multiply(BigDecimal.valueOf(nanos)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid duration \"" + text + "\"", e);
            }
        }
        long nanos = total.longValue();
        return Duration.ofNanos(negative ? -nanos : nanos);
    }
}
