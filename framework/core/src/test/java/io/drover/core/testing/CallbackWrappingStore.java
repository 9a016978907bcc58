package io.drover.core.testing;

import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.List;
import java.util.Map;

/**
 * A {@link StateStore} for tests that passes every call to a real store and wraps each change's durable callback
 * ({@link #wrap}): the one thing the test stores differ in (counting the changes not yet durable, holding the
 * callbacks back). Thread-safe as far as {@link #wrap} is.
 */
public abstract class CallbackWrappingStore implements StateStore {
    private final StateStore delegate;

    protected CallbackWrappingStore(StateStore delegate) {
        this.delegate = delegate;
    }

    /**
     * The callback the real store runs once the change is durable, on its writer thread, in place of
     * {@code onDurable} (which may be null: the caller wants no callback).
     */
    protected abstract Runnable wrap(Runnable onDurable);

    @Override
    public void persist(AllocationState state, Runnable onDurable) {
        delegate.persist(state, wrap(onDurable));
    }

    @Override
    public void putHandle(String allocId, String task, Map<String, String> handle, Runnable onDurable) {
        delegate.putHandle(allocId, task, handle, wrap(onDurable));
    }

    @Override
    public void delete(String allocId, Runnable onDurable) {
        delegate.delete(allocId, wrap(onDurable));
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
