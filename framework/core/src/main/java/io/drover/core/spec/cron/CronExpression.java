package io.drover.core.spec.cron;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.BitSet;
import java.util.Map;
import java.util.Optional;

/**
 * A cron expression in the syntax of {@code hashicorp/cronexpr}, which Nomad's {@code periodic { cron = ... }}
 * uses: 7 fields ({@code second minute hour day-of-month month day-of-week year}), 6 (no seconds: second 0) or
 * 5 (no seconds, any year), or a predefined {@code @yearly}, {@code @annually}, {@code @monthly}, {@code @weekly},
 * {@code @daily}, {@code @hourly} (cronexpr 1.1.3, Nomad's, has no {@code @midnight}; neither has this). A
 * wall-clock time that a DST change skips does not occur that day, as in cronexpr. Fields are described in {@link CronField} and
 * {@link CronDays}. Immutable, thread-safe; {@link #next} is pure.
 */
public final class CronExpression {
    private static final Map<String, String> PREDEFINED = Map.of(
            "@yearly", "0 0 0 1 1 * *", "@annually", "0 0 0 1 1 * *", "@monthly", "0 0 0 1 * * *",
            "@weekly", "0 0 0 * * 0 *", "@daily", "0 0 0 * * * *", "@hourly", "0 0 * * * * *");

    private final String text;
    private final BitSet seconds;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet months;
    private final BitSet years;
    private final CronDays days;

    private CronExpression(String text, String[] f) throws CronException {
        this.text = text;
        seconds = CronField.SECOND.parse(f[0]);
        minutes = CronField.MINUTE.parse(f[1]);
        hours = CronField.HOUR.parse(f[2]);
        days = CronDays.parse(f[3], f[5]);
        months = CronField.MONTH.parse(f[4]);
        years = CronField.YEAR.parse(f[6]);
    }

    /** @throws CronException naming the field at fault, in one line */
    public static CronExpression parse(String text) throws CronException {
        String trimmed = text == null ? "" : text.trim();
        String expanded = PREDEFINED.getOrDefault(trimmed.toLowerCase(java.util.Locale.ROOT), trimmed);
        if (expanded.startsWith("@")) {
            throw new CronException("unknown predefined expression '" + trimmed + "' (allowed: "
                    + String.join(", ", new java.util.TreeSet<>(PREDEFINED.keySet())) + ")");
        }
        String[] f = expanded.isEmpty() ? new String[0] : expanded.split("\\s+");
        String[] seven = switch (f.length) {
            case 5 -> new String[] {"0", f[0], f[1], f[2], f[3], f[4], "*"};
            case 6 -> new String[] {"0", f[0], f[1], f[2], f[3], f[4], f[5]};
            case 7 -> f;
            default -> throw new CronException("expected 5 to 7 fields, found " + f.length);
        };
        return new CronExpression(trimmed, seven);
    }

    /** The expression as written. */
    public String text() {
        return text;
    }

    /**
     * The first time strictly after {@code from} that matches, in {@code zone}'s wall-clock time (a time a DST
     * change skips does not occur, as in cronexpr); empty when none is left before the year 2100.
     */
    public Optional<Instant> next(Instant from, ZoneId zone) {
        ZonedDateTime start = from.atZone(zone).withNano(0).plusSeconds(1);
        LocalDate day = start.toLocalDate();
        LocalTime earliest = start.toLocalTime();
        while (day.getYear() <= CronField.YEAR.max) {
            if (!years.get(day.getYear())) {
                day = LocalDate.of(day.getYear() + 1, 1, 1);
                earliest = LocalTime.MIDNIGHT;
                continue;
            }
            if (!months.get(day.getMonthValue())) {
                day = day.withDayOfMonth(1).plusMonths(1);
                earliest = LocalTime.MIDNIGHT;
                continue;
            }
            if (days.match().test(day)) {
                LocalTime t = firstTime(earliest);
                if (t != null) {
                    LocalDateTime local = LocalDateTime.of(day, t);
                    ZonedDateTime zoned = ZonedDateTime.ofLocal(local, zone, null);
                    Instant at = zoned.toInstant();
                    if (at.isAfter(from) && zoned.toLocalDateTime().equals(local)) {
                        return Optional.of(at);
                    }
                    earliest = t.plusSeconds(1);
                    if (!earliest.isAfter(t)) { // wrapped past midnight
                        day = day.plusDays(1);
                        earliest = LocalTime.MIDNIGHT;
                    }
                    continue;
                }
            }
            day = day.plusDays(1);
            earliest = LocalTime.MIDNIGHT;
        }
        return Optional.empty();
    }

    /** The first time of day at or after {@code t} whose hour, minute and second all match; null when none. */
    private LocalTime firstTime(LocalTime t) {
        for (int h = hours.nextSetBit(t.getHour()); h >= 0; h = hours.nextSetBit(h + 1)) {
            int m0 = h == t.getHour() ? t.getMinute() : 0;
            for (int m = minutes.nextSetBit(m0); m >= 0; m = minutes.nextSetBit(m + 1)) {
                int s0 = h == t.getHour() && m == t.getMinute() ? t.getSecond() : 0;
                int s = seconds.nextSetBit(s0);
                if (s >= 0) {
                    return LocalTime.of(h, m, s);
                }
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return text;
    }
}
