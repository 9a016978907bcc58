package io.drover.core.store;

/**
 * Tuning of a {@link JournalStore}.
 *
 * @param compactBytes when the active journal grows past this many bytes, the writer folds everything into a
 *     new snapshot and starts an empty journal
 * @param maxBatch most operations written and synced together (one group commit)
 */
public record StoreOptions(long compactBytes, int maxBatch) {
    public static final StoreOptions DEFAULT = new StoreOptions(64L << 20, 8192);

    public StoreOptions {
        if (compactBytes <= 0 || maxBatch <= 0) {
            throw new IllegalArgumentException("compactBytes and maxBatch must be positive");
        }
    }

    public StoreOptions withCompactBytes(long bytes) {
        return new StoreOptions(bytes, maxBatch);
    }
}
