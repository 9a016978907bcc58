package io.drover.core.engine;

import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's worker pool: a fixed number of threads taking work in submission order, with one urgent lane
 * ahead of it. Urgent work is what a timer found due (max_runtime): it must not wait behind other allocations'
 * start-up and completion work queued in the same moments (docs/performance.md, max_runtime lateness). Urgent
 * work runs in its own submission order too. Thread-safe.
 */
final class EnginePool extends ThreadPoolExecutor implements UrgentExecutor {
    private final AtomicLong seq = new AtomicLong();

    EnginePool(int workers, ThreadFactory threads) {
        super(workers, workers, 0L, TimeUnit.MILLISECONDS, new PriorityBlockingQueue<>(), threads);
    }

    @Override
    public void execute(Runnable action) {
        super.execute(action instanceof Job ? action : new Job(action, false, seq.getAndIncrement()));
    }

    @Override
    public void executeUrgent(Runnable action) {
        super.execute(new Job(action, true, seq.getAndIncrement()));
    }

    /** Queued work: urgent first, then submission order. */
    private record Job(Runnable action, boolean urgent, long seq) implements Runnable, Comparable<Job> {
        @Override
        public void run() {
            action.run();
        }

        @Override
        public int compareTo(Job o) {
            if (urgent != o.urgent) {
                return urgent ? -1 : 1;
            }
            return Long.compare(seq, o.seq);
        }
    }
}
