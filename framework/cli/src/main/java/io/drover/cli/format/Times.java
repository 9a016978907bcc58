package io.drover.cli.format;

import io.drover.core.time.Nanos;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How the CLI prints instants: RFC 3339 with milliseconds. Nomad prints whole seconds; Drover keeps the
 * milliseconds so that the order of a lifecycle's events (often milliseconds apart) is visible.
 *
 * <p>Printed and parsed by hand in the common case (years 0-9999, an offset of whole minutes; a UTC time of the API
 * with 0-9 fraction digits), with {@link DateTimeFormatter}'s result, which {@code TimesTest} compares on many
 * instants and zones; anything else goes through {@code DateTimeFormatter} itself. Its first use (its class
 * initialiser builds the JDK's ~20 standard formatters; the pattern's parse; ~60 classes) was ~4-5 ms of a client
 * command's CPU (docs/performance.md, "Session 12"). Stateless; any thread.
 */
public final class Times {
    public static final String NOT_AVAILABLE = "N/A";

    private Times() {}

    /** {@code DateTimeFormatter}'s, created on first use only. */
    private static final class Jdk {
        /** RFC 3339 with milliseconds; the offset is {@code Z} for UTC. */
        static final DateTimeFormatter RFC3339_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");
    }

    /** Unix nanoseconds in the given zone (Nomad prints event and allocation times in local time). */
    public static String local(long unixNanos, ZoneId zone) {
        return format(Nanos.toInstant(unixNanos), zone);
    }

    /** An instant in UTC (Nomad prints a task's Started At/Finished At in UTC); N/A when null. */
    public static String utc(Instant instant) {
        return instant == null ? NOT_AVAILABLE : format(instant, ZoneOffset.UTC);
    }

    /** {@code uuuu-MM-dd'T'HH:mm:ss.SSSXXX} of {@code instant} in {@code zone}. */
    static String format(Instant instant, ZoneId zone) {
        ZoneOffset offset = zone instanceof ZoneOffset o ? o : zone.getRules().getOffset(instant);
        int total = offset.getTotalSeconds();
        long local = instant.getEpochSecond() + total;
        long day = Math.floorDiv(local, 86_400);
        int secondOfDay = (int) Math.floorMod(local, 86_400);
        if (total % 60 != 0 || day < -719_528 || day > 2_932_896) { // 0000-01-01 .. 9999-12-31
            return Jdk.RFC3339_MILLIS.format(instant.atZone(zone));
        }
        LocalDate date = LocalDate.ofEpochDay(day);
        StringBuilder sb = new StringBuilder(29);
        pad(sb, date.getYear(), 4).append('-');
        pad(sb, date.getMonthValue(), 2).append('-');
        pad(sb, date.getDayOfMonth(), 2).append('T');
        pad(sb, secondOfDay / 3600, 2).append(':');
        pad(sb, secondOfDay / 60 % 60, 2).append(':');
        pad(sb, secondOfDay % 60, 2).append('.');
        pad(sb, instant.getNano() / 1_000_000, 3);
        if (total == 0) {
            return sb.append('Z').toString();
        }
        int abs = Math.abs(total);
        sb.append(total < 0 ? '-' : '+');
        pad(sb, abs / 3600, 2).append(':');
        return pad(sb, abs / 60 % 60, 2).toString();
    }

    /**
     * {@link Instant#parse}: by hand for {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z} with every field in range (a leap
     * second, an offset, a lower-case letter, anything else: {@code Instant.parse} itself, whose exception a bad
     * text gets).
     */
    public static Instant parse(String text) {
        int n = text.length();
        if (n < 20 || n > 30 || n == 21 || text.charAt(n - 1) != 'Z' || text.charAt(4) != '-'
                || text.charAt(7) != '-' || text.charAt(10) != 'T' || text.charAt(13) != ':'
                || text.charAt(16) != ':' || (n > 20 && text.charAt(19) != '.')) {
            return Instant.parse(text);
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        int fraction = n > 20 ? digits(text, 20, n - 1) : 0;
        if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59
                || second < 0 || second > 59 || fraction < 0 || day > LocalDate.of(year, month, 1).lengthOfMonth()) {
            return Instant.parse(text);
        }
        for (int i = Math.max(0, n - 21); i < 9; i++) {
            fraction *= 10; // its n - 21 digits as 9 digits of nanoseconds
        }
        long epochSecond = LocalDate.of(year, month, day).toEpochDay() * 86_400 + hour * 3600 + minute * 60 + second;
        return Instant.ofEpochSecond(epochSecond, fraction);
    }

    /** The decimal digits {@code text[from, to)} as a number, -1 when one is not an ASCII digit. */
    private static int digits(String text, int from, int to) {
        int v = 0;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static StringBuilder pad(StringBuilder sb, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        return sb.append(s);
    }
}
