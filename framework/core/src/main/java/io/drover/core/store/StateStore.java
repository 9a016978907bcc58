package io.drover.core.store;

import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.Map;

/**
 * Durable store of allocation records (with their jobs, task states and every task event) and driver handles.
 *
 * <p><b>Threads.</b> Every method is thread-safe. The mutating methods ({@link #persist}, {@link #putHandle},
 * {@link #delete}) never block and never do I/O on the caller's thread: they queue the change and return. A
 * single writer thread takes everything queued, writes it, syncs it to disk with one {@code fsync} per batch
 * (group commit), then runs the batch's callbacks in the order the changes were queued. Callbacks therefore run on
 * the writer thread and must not block; an exception from a callback is logged and does not affect the others.
 *
 * <p><b>Durability.</b> When a change's {@code onDurable} callback runs, the change and every change queued
 * before it are on disk and survive a process crash ({@code kill -9}) and a power loss. A change whose callback
 * has not run may be lost. Callers publish a state only from its callback (persist, then publish).
 *
 * <p><b>Order.</b> Changes of one allocation must be queued in version order from one thread at a time (the
 * engine's per-allocation serial executor does so). A task's events only ever grow: each version's event list
 * starts with the previous version's list; {@link #persist} refuses a state that breaks this.
 *
 * <p><b>Disk errors.</b> If a write or sync fails (disk full, read-only, I/O error), the changes are held, not
 * lost and not acknowledged: their callbacks run, in order, once a later attempt has written and synced them
 * (the attempt rewrites them from the last durable offset, so a failed fsync is never trusted). Later changes
 * are accepted and held too. Only a change that cannot be encoded at all stops the store: later changes are
 * then refused with {@link IllegalStateException}.
 */
public interface StateStore extends AutoCloseable {

    /**
     * An {@code onDurable} callback of {@link #persist} that holds its state (to publish it) and can let it go.
     * While the disk refuses writes, a store may call {@link #superseded()} when a later persist of the same
     * allocation is held too: both will become durable in the same write, so the callback need not publish its
     * own version (the later one carries every event of it) and should drop its reference, so that a long stall
     * keeps one state per allocation in memory. The callback still runs, in queue order. Called on the writer
     * thread, before the callback runs, at most once; a store may never call it.
     */
    interface Supersedable extends Runnable {
        void superseded();
    }

    /**
     * Queues {@code state} as the newest version of its allocation. Only what changed since the last written
     * version goes to disk (new events, changed fields). Non-blocking.
     *
     * @param onDurable run on the writer thread once the state is on disk; may be null
     * @throws IllegalArgumentException if a task's events are not an extension of the previous version's
     * @throws IllegalStateException if the store is closed or stopped by an encoding failure
     */
    void persist(AllocationState state, Runnable onDurable);

    /**
     * Queues the driver handle of {@code task} of {@code allocId} (what a driver needs to re-attach to the task's
     * current run), replacing the previous one. An empty map removes it. Non-blocking.
     *
     * @param onDurable run on the writer thread once the handle is on disk; may be null
     */
    void putHandle(String allocId, String task, Map<String, String> handle, Runnable onDurable);

    /**
     * Queues the removal of an allocation and its handles (record retention). Non-blocking.
     *
     * @param onDurable run on the writer thread once the removal is on disk; may be null
     */
    void delete(String allocId, Runnable onDurable);

    /**
     * Every allocation whose latest version is durable, in that version, each with its job; ordered by create
     * time, then ID. At start (before any change) this is everything the store recovered from disk.
     */
    List<AllocationState> load();

    /** The durable driver handles of an allocation's tasks, keyed by task name; empty when none. */
    Map<String, Map<String, String>> handles(String allocId);

    /**
     * Writes and syncs everything queued, runs its callbacks, then releases the files. Idempotent; later changes
     * are refused. While the disk refuses writes it waits a bounded time, then drops what it could not write
     * (the files stay at their last durable state). Called from a callback (the writer thread), it stops the
     * writer without waiting for it.
     */
    @Override
    void close();
}
