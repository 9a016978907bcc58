package io.drover.core.engine;

import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's allocation listeners, called in the order they were added. {@link #publish} runs on the
 * publishing allocation's serial executor (so in order per allocation, allocations in parallel); listeners are
 * added from any thread (copy-on-write list). A listener that throws is logged and the others are still called.
 */
final class EngineListeners {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final List<AllocationListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** Any thread; a listener added twice is called twice. */
    void add(AllocationListener listener) {
        listeners.add(listener);
    }

    /** Passes a new snapshot to every listener, unless closed. Called on the allocation's executor. */
    void publish(AllocationState state) {
        if (closed) {
            return;
        }
        for (AllocationListener l : listeners) {
            try {
                l.onUpdate(state);
            } catch (RuntimeException e) {
                LOG.warn("allocation listener failed", e);
            }
        }
    }

    /** No more publishing (agent shutdown). Idempotent, any thread. */
    void close() {
        closed = true;
    }
}
