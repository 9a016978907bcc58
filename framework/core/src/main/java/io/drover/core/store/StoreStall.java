package io.drover.core.store;

import java.nio.file.Path;

/**
 * The store cannot write: the disk under it is full, read-only or failing. Changes are held in memory (not
 * acknowledged, so nobody has seen them) and the writer retries until the write succeeds.
 *
 * @param file the file the failed write or sync was for
 * @param reason the operating system's reason, one line ({@code No space left on device}, {@code Read-only file
 *     system}, {@code Input/output error})
 * @param sinceMillis wall-clock time of the first failure of this stall
 * @param heldChanges changes queued and not yet durable when last counted
 */
public record StoreStall(Path file, String reason, long sinceMillis, int heldChanges) {
    /** One line for an operator or an API client, naming the file and the reason. */
    public String describe() {
        return "state store cannot write to " + file + ": " + reason + "; " + heldChanges
                + " change(s) held in memory, retrying";
    }
}
