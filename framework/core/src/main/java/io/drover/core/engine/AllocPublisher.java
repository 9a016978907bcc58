package io.drover.core.engine;

import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import io.drover.driver.api.TaskHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state persistence of one allocation: persist, then publish. Each {@link #flush} of a changed allocation (the
 * allocation calls it once its actions settled: {@link SerialExecutor}'s settled action)
 * queues a new {@link AllocationState} with the {@link StateStore}; once it is durable it is published (the
 * snapshot readers see, the engine's listener, the terminal future) and the actions that waited for it
 * ({@link #afterDurable}) are posted. Without a store (drover run) every state is published at once.
 *
 * <p>Serial executor of the allocation, except the durable callback (the store's writer thread), which only posts
 * onto that executor. {@link #flush} is idempotent while nothing changed; {@link #snapshot}, {@link #recorded} and
 * {@link #terminal} may be read from any thread. Never blocks: the store's calls queue.
 */
final class AllocPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(AllocRunner.class);

    private final String id;
    private final StateStore store;
    private final Consumer<AllocationState> publisher;
    /** The allocation's serial executor: where publications and waiting actions run. */
    private final Executor serial;
    private final CompletableFuture<AllocationState> terminal = new CompletableFuture<>();
    /** Completes when a state of the allocation is on disk (at once for a resumed one). */
    private final CompletableFuture<Void> recorded = new CompletableFuture<>();
    private volatile AllocationState snapshot;
    private boolean dirty;
    /** Actions waiting for the changes recorded so far to be durable ({@link #afterDurable}). */
    private List<Runnable> afterDurable = new ArrayList<>();

    /** @param store where every change is persisted before it is published; null: publish at once (drover run) */
    AllocPublisher(String id, StateStore store, Consumer<AllocationState> publisher, Executor serial) {
        this.id = id;
        this.store = store;
        this.publisher = publisher;
        this.serial = serial;
    }

    AllocationState snapshot() {
        return snapshot;
    }

    /** Sets the state shown before anything was published (a new allocation's first, a change before it starts). */
    void show(AllocationState state) {
        snapshot = state;
    }

    CompletableFuture<AllocationState> terminal() {
        return terminal;
    }

    CompletableFuture<Void> recorded() {
        return recorded;
    }

    /** Something changed: the next {@link #flush} persists and publishes a new state. */
    void changed() {
        dirty = true;
    }

    /** Runs {@code action} on the serial executor once every change recorded so far is durable. */
    void afterDurable(Runnable action) {
        afterDurable.add(action);
        dirty = true;
    }

    /**
     * After an action of the allocation: when something changed, persists the state {@code build} makes and
     * publishes it once durable ({@code done}: the allocation is terminal).
     */
    void flush(java.util.function.Supplier<AllocationState> build, boolean done) {
        if (!dirty) {
            return;
        }
        dirty = false;
        AllocationState next = build.get();
        List<Runnable> waiting = afterDurable;
        if (!waiting.isEmpty()) {
            afterDurable = new ArrayList<>();
        }
        if (store == null) {
            publish(next, done);
            waiting.forEach(serial::execute);
            return;
        }
        try {
            store.persist(next, new Publication(next, done, waiting));
        } catch (IllegalStateException e) {
            // The store stopped for good (a change it could not encode) or is closed: nothing more can be
            // recorded, and a state that is not on disk is never shown. (Disk errors do not throw: the store
            // holds the change and publishes it once written.) The agent treats a stopped store as fatal.
            LOG.error("allocation {}: state not recorded, the state store failed: {}", id, e.getMessage());
        }
    }

    /**
     * The durable callback of one persisted version (run on the store's writer thread): publishes the version,
     * then posts the runnables that waited for it to be durable. A version the store reports
     * {@linkplain StateStore.Supersedable#superseded() superseded} (a later one, held with it while the disk
     * refuses writes, becomes durable in the same write) is not published and not kept: the later version,
     * published right after it, carries all its events.
     */
    private final class Publication implements StateStore.Supersedable {
        private AllocationState next; // writer thread only, once queued
        private final boolean done;
        private final List<Runnable> waiting;

        Publication(AllocationState next, boolean done, List<Runnable> waiting) {
            this.next = next;
            this.done = done;
            this.waiting = waiting;
        }

        @Override
        public void superseded() {
            next = null;
        }

        @Override
        public void run() {
            if (next != null) {
                publishLater(next, done);
            }
            if (!waiting.isEmpty()) {
                try {
                    waiting.forEach(serial::execute);
                } catch (RejectedExecutionException e) {
                    LOG.debug("allocation {}: the agent is shut down, a task start is dropped", id);
                }
            }
        }
    }

    /**
     * Posts the publication of a durable state to the allocation's executor (from the store's writer thread).
     * After an agent shutdown the pool refuses it: the state is on disk and the closed engine publishes nothing,
     * so that is not an error.
     */
    private void publishLater(AllocationState next, boolean done) {
        try {
            serial.execute(() -> publish(next, done));
        } catch (RejectedExecutionException e) {
            LOG.debug("allocation {}: durable state not published, the agent is shut down", id);
        }
    }

    /** Persist, then publish: readers and listeners only ever see durable states. */
    void publish(AllocationState next, boolean done) {
        snapshot = next;
        recorded.complete(null);
        publisher.accept(next);
        if (done && !terminal.isDone()) {
            terminal.complete(next);
        }
    }

    /** A resumed allocation: its recorded state is on disk already. */
    void resumed(AllocationState stored) {
        snapshot = stored;
        recorded.complete(null);
    }

    /** Persists the handle of a task's current run (null: the run ended). */
    void handle(String task, TaskHandle handle) {
        if (store == null) {
            return;
        }
        try {
            store.putHandle(id, task, handle == null ? Map.of() : Handles.toMap(handle), null);
        } catch (IllegalStateException e) {
            LOG.error("allocation {}: handle of {} not recorded, the state store failed: {}", id, task,
                    e.getMessage());
        }
    }
}
