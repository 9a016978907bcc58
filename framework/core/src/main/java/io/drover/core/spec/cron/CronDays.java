package io.drover.core.spec.cron;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Predicate;

/**
 * The day-of-month and day-of-week fields together, as {@code cronexpr} matches them: each may be plain
 * ({@link CronField}) or use its extras — {@code L} (last day of the month), {@code nW} (the weekday nearest the
 * n-th), {@code LW} (the last weekday) in day-of-month; {@code nL} (the last weekday n of the month) and
 * {@code n#k} (the k-th weekday n) in day-of-week. When both fields are restricted (neither {@code *} nor
 * {@code ?}), a day matches when either does, as in Vixie cron. Pure.
 */
record CronDays(Predicate<LocalDate> match) {

    static CronDays parse(String dom, String dow) throws CronException {
        boolean domAll = dom.equals("*") || dom.equals("?");
        boolean dowAll = dow.equals("*") || dow.equals("?");
        Predicate<LocalDate> d = dayOfMonth(dom);
        Predicate<LocalDate> w = dayOfWeek(dow);
        if (domAll && dowAll) {
            return new CronDays(x -> true);
        }
        if (domAll) {
            return new CronDays(w);
        }
        if (dowAll) {
            return new CronDays(d);
        }
        return new CronDays(d.or(w));
    }

    private static Predicate<LocalDate> dayOfMonth(String text) throws CronException {
        List<Predicate<LocalDate>> parts = new ArrayList<>();
        StringBuilder plain = new StringBuilder();
        for (String part : text.split(",", -1)) {
            if (part.equals("L")) {
                parts.add(x -> x.getDayOfMonth() == x.lengthOfMonth());
            } else if (part.equals("LW")) {
                parts.add(x -> x.equals(lastWeekday(x)));
            } else if (part.endsWith("W") && part.length() > 1) {
                int n = single(CronField.DAY_OF_MONTH, part.substring(0, part.length() - 1), part);
                parts.add(x -> x.equals(nearestWeekday(x, n)));
            } else {
                plain.append(plain.length() == 0 ? "" : ",").append(part);
            }
        }
        if (plain.length() > 0) {
            BitSet days = CronField.DAY_OF_MONTH.parse(plain.toString());
            parts.add(x -> days.get(x.getDayOfMonth()));
        }
        return any(parts);
    }

    private static Predicate<LocalDate> dayOfWeek(String text) throws CronException {
        List<Predicate<LocalDate>> parts = new ArrayList<>();
        StringBuilder plain = new StringBuilder();
        for (String part : text.split(",", -1)) {
            int hash = part.indexOf('#');
            if (hash > 0) {
                int day = single(CronField.DAY_OF_WEEK, part.substring(0, hash), part) % 7;
                int k = single(CronField.DAY_OF_WEEK, part.substring(hash + 1), part);
                if (k < 1 || k > 5) {
                    throw CronField.DAY_OF_WEEK.error(part, "the occurrence after '#' must be 1-5");
                }
                parts.add(x -> weekday(x) == day && (x.getDayOfMonth() - 1) / 7 + 1 == k);
            } else if (part.endsWith("L") && part.length() > 1) {
                int day = single(CronField.DAY_OF_WEEK, part.substring(0, part.length() - 1), part) % 7;
                parts.add(x -> weekday(x) == day && x.getDayOfMonth() + 7 > x.lengthOfMonth());
            } else {
                plain.append(plain.length() == 0 ? "" : ",").append(part);
            }
        }
        if (plain.length() > 0) {
            BitSet days = CronField.DAY_OF_WEEK.parse(plain.toString());
            parts.add(x -> days.get(weekday(x)));
        }
        return any(parts);
    }

    private static int single(CronField field, String text, String part) throws CronException {
        BitSet one = field.parse(text);
        if (one.cardinality() != 1 || text.contains("*") || text.contains("-") || text.contains("/")) {
            throw field.error(part, "expected a single value before the modifier");
        }
        return one.nextSetBit(0);
    }

    /** 0 = Sunday ... 6 = Saturday, cron's numbering. */
    private static int weekday(LocalDate d) {
        return d.getDayOfWeek().getValue() % 7;
    }

    private static LocalDate lastWeekday(LocalDate d) {
        LocalDate last = d.with(TemporalAdjusters.lastDayOfMonth());
        while (last.getDayOfWeek() == DayOfWeek.SATURDAY || last.getDayOfWeek() == DayOfWeek.SUNDAY) {
            last = last.minusDays(1);
        }
        return last;
    }

    /** The weekday nearest day {@code n} of d's month, never crossing into another month (cron's W). */
    private static LocalDate nearestWeekday(LocalDate d, int n) {
        if (n > d.lengthOfMonth()) {
            return null;
        }
        LocalDate t = d.withDayOfMonth(n);
        if (t.getDayOfWeek() == DayOfWeek.SATURDAY) {
            return n == 1 ? t.plusDays(2) : t.minusDays(1);
        }
        if (t.getDayOfWeek() == DayOfWeek.SUNDAY) {
            return n == t.lengthOfMonth() ? t.minusDays(2) : t.plusDays(1);
        }
        return t;
    }

    private static Predicate<LocalDate> any(List<Predicate<LocalDate>> parts) {
        return x -> {
            for (Predicate<LocalDate> p : parts) {
                if (p.test(x)) {
                    return true;
                }
            }
            return false;
        };
    }
}
