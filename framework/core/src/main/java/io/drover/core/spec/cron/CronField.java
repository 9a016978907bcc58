package io.drover.core.spec.cron;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * One field of a cron expression as {@code hashicorp/cronexpr} reads it (the library Nomad's {@code periodic}
 * uses): {@code *}, {@code ?} (the same as {@code *}, in any field as cronexpr reads it), a value, a range {@code a-b}, a step {@code * /n}, {@code a-b/n} or
 * {@code a/n}, and comma-separated lists of those; months and weekdays also by name ({@code JAN}, {@code MON}).
 * Day-of-month and day-of-week extras ({@code L}, {@code W}, {@code #}) are read by {@link CronDays}. Pure.
 */
enum CronField {
    SECOND("second", 0, 59, List.of()),
    MINUTE("minute", 0, 59, List.of()),
    HOUR("hour", 0, 23, List.of()),
    DAY_OF_MONTH("day-of-month", 1, 31, List.of()),
    MONTH("month", 1, 12, List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV",
            "DEC")),
    DAY_OF_WEEK("day-of-week", 0, 7, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT")),
    YEAR("year", 1970, 2099, List.of());

    final String label;
    final int min;
    final int max;
    private final List<String> names;

    CronField(String label, int min, int max, List<String> names) {
        this.label = label;
        this.min = min;
        this.max = max;
        this.names = names;
    }

    /** The values {@code text} selects (a bit per value); {@code *} and {@code ?} select every value. */
    BitSet parse(String text) throws CronException {
        BitSet out = new BitSet(max + 1);
        if (text.isEmpty()) {
            throw error(text, "empty");
        }
        for (String part : text.split(",", -1)) {
            range(part, out);
        }
        if (this == DAY_OF_WEEK && out.get(7)) { // 7 is Sunday too
            out.clear(7);
            out.set(0);
        }
        return out;
    }

    private void range(String part, BitSet out) throws CronException {
        String body = part;
        int step = 1;
        int slash = part.indexOf('/');
        if (slash >= 0) {
            body = part.substring(0, slash);
            step = number(part.substring(slash + 1), part);
            if (step < 1) {
                throw error(part, "the step must be at least 1");
            }
        }
        int from;
        int to;
        if (body.equals("*") || body.equals("?")) {
            from = min;
            to = this == DAY_OF_WEEK ? 6 : max;
        } else {
            int dash = body.indexOf('-');
            if (dash > 0) {
                from = value(body.substring(0, dash), part);
                to = value(body.substring(dash + 1), part);
                if (to < from) {
                    throw error(part, "the range ends before it starts");
                }
            } else {
                from = value(body, part);
                to = slash >= 0 ? (this == DAY_OF_WEEK ? 6 : max) : from;
            }
        }
        for (int v = from; v <= to; v += step) {
            out.set(v);
        }
    }

    private int value(String text, String part) throws CronException {
        int named = names.indexOf(text.toUpperCase(Locale.ROOT));
        if (named >= 0) {
            return named + (this == MONTH ? 1 : 0);
        }
        int v = number(text, part);
        if (v < min || v > max) {
            throw error(part, "out of range " + min + "-" + max);
        }
        return v;
    }

    private int number(String text, String part) throws CronException {
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw error(part, "not a number" + (names.isEmpty() ? "" : " or a name (" + names.get(0) + "...)"));
        }
        return Integer.parseInt(text);
    }

    CronException error(String part, String why) {
        return new CronException("syntax error in " + label + " field: '" + part + "' (" + why + ")");
    }
}
