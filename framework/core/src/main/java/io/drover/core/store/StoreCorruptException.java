package io.drover.core.store;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The store's files hold data that cannot be read back: a bad checksum or an unreadable record that is not the
 * torn (never acknowledged) tail of the newest journal, or records that contradict each other. The store refuses
 * to open rather than silently dropping data. The message is one line naming the file and the byte offset.
 */
public final class StoreCorruptException extends IOException {
    private final Path file;
    private final long offset;

    public StoreCorruptException(Path file, long offset, String problem) {
        super("state store is corrupt: " + file + " at offset " + offset + ": " + problem
                + "; refusing to open (restore the file or move the store directory aside)");
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}
