package io.drover.core.store;

import java.time.Duration;

/**
 * Tuning of a {@link JournalStore}.
 *
 * @param compactBytes when the active journal grows past this many bytes, the writer folds everything into a
 *     new snapshot and starts an empty journal
 * @param maxBatch most operations taken from the queue at once (one group commit when the disk is healthy)
 * @param retryMax longest wait between two attempts to write held changes after a write or sync error (the
 *     first retry comes after {@link #FIRST_RETRY}, each wait doubles up to this)
 * @param closeWait how long {@link JournalStore#close()} keeps retrying held changes before it gives up on them
 * @param closeCompactBytes a graceful {@link JournalStore#close()} folds a journal of at least this many bytes,
 *     and more than the current snapshot, into a new snapshot; 0 never does
 */
public record StoreOptions(long compactBytes, int maxBatch, Duration retryMax, Duration closeWait,
        long closeCompactBytes) {
    /** First wait after a failed write; later waits double up to {@code retryMax}. */
    public static final Duration FIRST_RETRY = Duration.ofMillis(50);

    public static final StoreOptions DEFAULT =
            new StoreOptions(64L << 20, 8192, Duration.ofSeconds(1), Duration.ofSeconds(10), 1L << 20);

    public StoreOptions {
        if (compactBytes <= 0 || maxBatch <= 0 || closeCompactBytes < 0) {
            throw new IllegalArgumentException("compactBytes and maxBatch must be positive, closeCompactBytes not "
                    + "negative");
        }
        if (retryMax.isNegative() || retryMax.isZero() || closeWait.isNegative()) {
            throw new IllegalArgumentException("retryMax must be positive and closeWait not negative");
        }
    }

    public StoreOptions withCompactBytes(long bytes) {
        return new StoreOptions(bytes, maxBatch, retryMax, closeWait, closeCompactBytes);
    }

    /** @param bytes the journal size from which a graceful close compacts; 0: never (tests that read the journal) */
    public StoreOptions withCloseCompactBytes(long bytes) {
        return new StoreOptions(compactBytes, maxBatch, retryMax, closeWait, bytes);
    }

    public StoreOptions withRetry(Duration max, Duration close) {
        return new StoreOptions(compactBytes, maxBatch, max, close, closeCompactBytes);
    }
}
