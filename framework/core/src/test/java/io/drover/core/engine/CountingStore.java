package io.drover.core.engine;

import io.drover.core.store.StateStore;
import io.drover.core.testing.CallbackWrappingStore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and counts changes whose durable callback has not yet run, so a virtual-clock test can wait
 * for the writer thread (an event, not a sleep) before it moves time.
 */
final class CountingStore extends CallbackWrappingStore {
    private final AtomicInteger outstanding = new AtomicInteger();

    CountingStore(StateStore delegate) {
        super(delegate);
    }

    int outstanding() {
        return outstanding.get();
    }

    @Override
    protected Runnable wrap(Runnable onDurable) {
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
}
