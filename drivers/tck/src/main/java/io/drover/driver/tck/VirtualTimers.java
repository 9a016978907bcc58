package io.drover.driver.tck;

import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.PriorityQueue;

/**
 * A virtual clock for tests: time stands still until {@link #advanceTo} or {@link #runNextTimer} moves it,
 * and due actions run on the calling thread, in due-time order (ties in scheduling order). Deterministic.
 * Not thread-safe in the sense of real concurrency: drive it from one test thread. The one virtual clock of the
 * project: Drover's engine tests and test kit use it too, and it ships with the TCK so that a plugin's tests run
 * its driver deterministically without Drover's core.
 */
public final class VirtualTimers implements Timers {
    private record Entry(Instant due, long seq, Runnable action, boolean[] cancelled) {}

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> {
        int c = a.due.compareTo(b.due);
        return c != 0 ? c : Long.compare(a.seq, b.seq);
    });
    private Instant now;
    private long seq;

    public VirtualTimers(Instant start) {
        this.now = start;
    }

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable action) {
        boolean[] cancelled = {false};
        Duration d = delay.isNegative() ? Duration.ZERO : delay;
        queue.add(new Entry(now.plus(d), seq++, action, cancelled));
        return () -> {
            synchronized (VirtualTimers.this) {
                cancelled[0] = true;
            }
        };
    }

    /** When the next live timer is due, if any. */
    public synchronized Optional<Instant> nextDue() {
        dropCancelled();
        return Optional.ofNullable(queue.peek()).map(Entry::due);
    }

    /** Moves time to the next live timer and runs it; false when none is left. */
    public boolean runNextTimer() {
        Entry e;
        synchronized (this) {
            dropCancelled();
            e = queue.poll();
            if (e == null) {
                return false;
            }
            if (e.due.isAfter(now)) {
                now = e.due;
            }
        }
        e.action.run();
        return true;
    }

    /** Runs every timer due up to {@code target} in order, then sets the clock to {@code target}. */
    public void advanceTo(Instant target) {
        while (true) {
            Optional<Instant> next = nextDue();
            if (next.isEmpty() || next.get().isAfter(target)) {
                break;
            }
            runNextTimer();
        }
        synchronized (this) {
            if (target.isAfter(now)) {
                now = target;
            }
        }
    }

    public void advance(Duration d) {
        advanceTo(now().plus(d));
    }

    private void dropCancelled() {
        while (!queue.isEmpty() && queue.peek().cancelled[0]) {
            queue.poll();
        }
    }
}
