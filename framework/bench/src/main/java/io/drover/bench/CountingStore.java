package io.drover.bench;

import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store that counts what the engine asks of the real one (allocation versions persisted, driver-handle writes)
 * and passes every call through unchanged, durability callbacks included: the work per allocation a bench
 * reports beside its time. Thread-safe as the store it wraps.
 */
final class CountingStore implements StateStore {
    private final StateStore delegate;
    final LongAdder persists = new LongAdder();
    final LongAdder handles = new LongAdder();

    CountingStore(StateStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void persist(AllocationState state, Runnable onDurable) {
        persists.increment();
        delegate.persist(state, onDurable);
    }

    @Override
    public void putHandle(String allocId, String task, Map<String, String> handle, Runnable onDurable) {
        handles.increment();
        delegate.putHandle(allocId, task, handle, onDurable);
    }

    @Override
    public void delete(String allocId, Runnable onDurable) {
        delegate.delete(allocId, onDurable);
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
