package io.drover.core.gc;

/**
 * Usage of the file system that holds data_dir. A total of 0 means unknown (that check is skipped).
 */
public record DiskUsage(long totalBytes, long usedBytes, long totalInodes, long usedInodes) {
    public static final DiskUsage UNKNOWN = new DiskUsage(0, 0, 0, 0);

    static boolean over(long used, long total, int thresholdPercent) {
        return total > 0 && used * 100 > (long) thresholdPercent * total;
    }

    static String percent(long used, long total) {
        return total <= 0 ? "?" : String.format("%.1f%%", used * 100.0 / total);
    }
}
