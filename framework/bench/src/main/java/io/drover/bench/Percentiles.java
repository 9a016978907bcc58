package io.drover.bench;

import java.util.Arrays;
import java.util.Collection;

/** Nearest-rank percentiles of a sample. */
final class Percentiles {
    private final double[] sorted;

    private Percentiles(double[] sorted) {
        this.sorted = sorted;
    }

    static Percentiles of(Collection<Double> values) {
        double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return new Percentiles(a);
    }

    static Percentiles of(double[] values) {
        double[] a = values.clone();
        Arrays.sort(a);
        return new Percentiles(a);
    }

    /** The nearest-rank {@code p}th percentile (p in 1..100); NaN for an empty sample. */
    double p(double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    int size() {
        return sorted.length;
    }
}
