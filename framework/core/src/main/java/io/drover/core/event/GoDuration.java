package io.drover.core.event;

import java.time.Duration;

/** Formats durations the way Go's {@code time.Duration.String()} does ({@code 5s}, {@code 1m30s}, {@code 250ms}). */
public final class GoDuration {
    private GoDuration() {}

    public static String format(Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        StringBuilder sb = new StringBuilder();
        if (nanos < 0) {
            sb.append('-');
            nanos = -nanos;
        }
        if (nanos < 1_000_000_000L) {
            if (nanos < 1_000L) {
                return sb.append(nanos).append("ns").toString();
            } else if (nanos < 1_000_000L) {
                return sb.append(decimal(nanos, 1_000L)).append("µs").toString();
            }
            return sb.append(decimal(nanos, 1_000_000L)).append("ms").toString();
        }
        long hours = nanos / 3_600_000_000_000L;
        long rest = nanos % 3_600_000_000_000L;
        long minutes = rest / 60_000_000_000L;
        long secNanos = rest % 60_000_000_000L;
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        sb.append(decimal(secNanos, 1_000_000_000L)).append('s');
        return sb.toString();
    }

    private static String decimal(long value, long unit) {
        long whole = value / unit;
        long frac = value % unit;
        if (frac == 0) {
            return Long.toString(whole);
        }
        String digits = String.format("%0" + Long.toString(unit).length() + "d", frac).substring(1);
        digits = digits.replaceAll("0+$", "");
        return whole + "." + digits;
    }
}
