package io.drover.core.engine;

import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and counts changes whose durable callback has not yet run, so a virtual-clock test can wait
 * for the writer thread (an event, not a sleep) before it moves time.
 */
final class CountingStore implements StateStore {
    private final StateStore delegate;
    private final AtomicInteger outstanding = new AtomicInteger();

    CountingStore(StateStore delegate) {
        this.delegate = delegate;
    }

    int outstanding() {
        return outstanding.get();
    }

    private Runnable counted(Runnable onDurable) {
        outstanding.incrementAndGet();
        return () -> {
            try {
                if (onDurable != null) {
                    onDurable.run();
                }
            } finally {
                outstanding.decrementAndGet();
            }
        };
    }

    @Override
    public void persist(AllocationState state, Runnable onDurable) {
        delegate.persist(state, counted(onDurable));
    }

    @Override
    public void putHandle(String allocId, String task, Map<String, String> handle, Runnable onDurable) {
        delegate.putHandle(allocId, task, handle, counted(onDurable));
    }

    @Override
    public void delete(String allocId, Runnable onDurable) {
        delegate.delete(allocId, counted(onDurable));
    }

    @Override
    public List<AllocationState> load() {
        return delegate.load();
    }

    @Override
    public Map<String, Map<String, String>> handles(String allocId) {
        return delegate.handles(allocId);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
