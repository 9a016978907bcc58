package io.drover.core.engine;

import io.drover.core.gc.GcReason;
import io.drover.core.store.StateStore;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acts on one allocation by id: stop, kill now, signal, destroy (client GC) and purge. Thread-safe, never blocks:
 * each call looks the runner up in the {@link AllocTable} and posts an action onto its serial executor; an
 * unknown id is ignored (or answered as such). Purge also deletes the record from the store.
 */
final class AllocControl {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final AllocTable table;
    private final StateStore store;

    /** @param store null: state in memory only */
    AllocControl(AllocTable table, StateStore store) {
        this.table = table;
        this.store = store;
    }

    /** See {@link Engine#stop}. Idempotent. */
    void stop(String allocId) {
        AllocRunner runner = table.get(allocId);
        if (runner != null) {
            runner.stop();
        }
    }

    /** See {@link Engine#killNow}. Idempotent. */
    void killNow(String allocId, String reason) {
        AllocRunner runner = table.get(allocId);
        if (runner != null) {
            runner.killNow(reason);
        }
    }

    /** See {@link Engine#signal}. */
    void signal(String allocId, String task, String signal) {
        AllocRunner runner = table.get(allocId);
        if (runner != null) {
            runner.signal(task, signal);
        }
    }

    /** See {@link Engine#destroy}. */
    CompletableFuture<DestroyOutcome> destroy(String allocId, GcReason reason) {
        AllocRunner runner = table.get(allocId);
        if (runner == null) {
            return CompletableFuture.completedFuture(DestroyOutcome.UNKNOWN);
        }
        return runner.destroy(reason);
    }

    /** See {@link Engine#purge}. */
    boolean purge(String allocId) {
        AllocRunner runner = table.get(allocId);
        if (runner == null || runner.snapshot().destroyedAt() < 0) {
            return false;
        }
        table.remove(allocId);
        if (store != null) {
            try {
                store.delete(allocId, null);
            } catch (IllegalStateException e) {
                LOG.error("allocation {}: purge not recorded, the state store failed: {}", allocId, e.getMessage());
            }
        }
        return true;
    }
}
