package io.drover.plugins.mock;

import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.PriorityQueue;

/** A virtual clock for the mock's tests: time moves only in {@link #advance}, due actions run on the caller. */
final class FakeTimers implements Timers {
    private record Entry(Instant due, long seq, Runnable action, boolean[] cancelled) {}

    private final PriorityQueue<Entry> queue = new PriorityQueue<>((a, b) -> a.due.equals(b.due)
            ? Long.compare(a.seq, b.seq) : a.due.compareTo(b.due));
    private Instant now = Instant.parse("2024-01-01T00:00:00Z");
    private long seq;

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public synchronized Cancellable schedule(Duration delay, Runnable action) {
        boolean[] cancelled = {false};
        queue.add(new Entry(now.plus(delay.isNegative() ? Duration.ZERO : delay), seq++, action, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Runs every action due within {@code d}, in order, then moves the clock to now + d. */
    void advance(Duration d) {
        Instant target = now().plus(d);
        while (true) {
            Entry e;
            synchronized (this) {
                e = queue.peek();
                if (e == null || e.due.isAfter(target)) {
                    now = target;
                    return;
                }
                queue.poll();
                now = e.due;
            }
            if (!e.cancelled[0]) {
                e.action.run();
            }
        }
    }

    /** Number of live timers. */
    synchronized long pending() {
        return queue.stream().filter(e -> !e.cancelled[0]).count();
    }
}
