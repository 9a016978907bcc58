package io.drover.bench;

/**
 * One measured figure of a bench, as printed in the table and the JSON.
 *
 * @param bench the bench's name ({@link Bench#name()})
 * @param metric what was measured, e.g. "raw_exec launch median"
 * @param value the figure; NaN when the bench failed
 * @param unit "ms", "s", "MiB", "allocs/s", "x" (a ratio)...
 * @param baseline what the figure is measured against in the same run, or "" (e.g. "ProcessBuilder 1.71 ms")
 * @param aim the aim in words, or "" (e.g. "<= 1.3")
 * @param verdict the figure against its aim
 */
public record Figure(String bench, String metric, double value, String unit, String baseline, String aim,
        Verdict verdict) {

    /** A figure with no aim. */
    public static Figure info(String bench, String metric, double value, String unit, String baseline) {
        return new Figure(bench, metric, value, unit, baseline, "", Verdict.INFO);
    }

    /** A figure whose aim is an upper bound. */
    public static Figure atMost(String bench, String metric, double value, String unit, String baseline,
            double limit) {
        return new Figure(bench, metric, value, unit, baseline, "<= " + Table.number(limit) + " " + unit,
                Verdict.of(value <= limit));
    }

    /** A figure whose aim is a lower bound. */
    public static Figure atLeast(String bench, String metric, double value, String unit, String baseline,
            double limit) {
        return new Figure(bench, metric, value, unit, baseline, ">= " + Table.number(limit) + " " + unit,
                Verdict.of(value >= limit));
    }

    /** The bench failed: its error message is kept in the baseline column. */
    public static Figure error(String bench, String message) {
        return new Figure(bench, "(failed)", Double.NaN, "", message, "", Verdict.ERROR);
    }
}
