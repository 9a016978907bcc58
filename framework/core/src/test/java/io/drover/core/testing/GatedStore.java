package io.drover.core.testing;

import io.drover.core.store.StateStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link StateStore} that passes every change to a real store and, while {@link #hold} is in force, holds back
 * the changes' durable callbacks: the window between "written" and "on disk" made as long as a test needs.
 * Thread-safe; {@link #release} runs the held callbacks on the calling thread, in order. Shared through core's
 * test-jar (engine and agent tests).
 */
public final class GatedStore extends CallbackWrappingStore {
    private final List<Runnable> held = new ArrayList<>();
    private boolean holding;

    public GatedStore(StateStore delegate) {
        super(delegate);
    }

    /** From now on, durable callbacks wait for {@link #release}. */
    public synchronized void hold() {
        holding = true;
    }

    /** Runs every held callback and stops holding. */
    public void release() {
        List<Runnable> now;
        synchronized (this) {
            holding = false;
            now = new ArrayList<>(held);
            held.clear();
        }
        now.forEach(Runnable::run);
    }

    /**
     * Blocks until the real store has made at least one change durable while holding (its callback is held), so
     * the window under test is really open; fails after {@code timeout}.
     */
    public synchronized void awaitHeld(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (held.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("no durable callback held within " + timeout);
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    @Override
    protected Runnable wrap(Runnable onDurable) {
        if (onDurable == null) {
            return null;
        }
        return () -> {
            synchronized (this) {
                if (holding) {
                    held.add(onDurable);
                    notifyAll();
                    return;
                }
            }
            onDurable.run();
        };
    }
}
