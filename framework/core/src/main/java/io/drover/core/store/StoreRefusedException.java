package io.drover.core.store;

import java.io.IOException;

/**
 * The store directory cannot be trusted or is incomplete, so the store refuses to open rather than start from
 * what another user may have planted or with allocations silently missing: the directory is owned or writable by
 * another user, or a file its own records say exists is gone. The message is one line naming the directory or
 * file, the reason and what to do.
 */
public final class StoreRefusedException extends IOException {
    public StoreRefusedException(String message) {
        super(message);
    }
}
