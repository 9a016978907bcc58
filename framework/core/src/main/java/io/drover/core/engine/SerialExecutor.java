package io.drover.core.engine;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs submitted actions one at a time, in submission order, on a shared executor: the owner of one
 * allocation's state. Actions of different allocations run in parallel on the shared pool; actions of one
 * allocation never overlap, so allocation and task state need no locks. Thread-safe.
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor pool;
    private final String allocId;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private boolean scheduled;

    SerialExecutor(Executor pool, String allocId) {
        this.pool = pool;
        this.allocId = allocId;
    }

    @Override
    public void execute(Runnable action) {
        synchronized (queue) {
            queue.add(action);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        pool.execute(this::drain);
    }

    /**
     * As {@link #execute}, in the same order after this allocation's queued actions, but when the allocation is
     * idle its turn goes ahead of other allocations' ordinary work on a pool with an urgent lane. For timer
     * work that is due now (max_runtime). An already scheduled turn is not moved.
     */
    void executeUrgent(Runnable action) {
        synchronized (queue) {
            queue.add(action);
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        if (pool instanceof UrgentExecutor urgent) {
            urgent.executeUrgent(this::drain);
        } else {
            pool.execute(this::drain);
        }
    }

    /**
     * Runs up to 64 queued actions with the MDC key {@code alloc_id} set to this allocation (so every log line
     * of an action names it), then puts back what the pool thread had (nothing, on the engine pool): a pool
     * thread never carries one allocation's id into another's action.
     */
    private void drain() {
        String previous = MDC.get(TaskLog.ALLOC_ID);
        MDC.put(TaskLog.ALLOC_ID, allocId);
        try {
            // Bounded batch per turn so one busy allocation cannot starve the others on the pool.
            for (int i = 0; i < 64; i++) {
                Runnable next;
                synchronized (queue) {
                    next = queue.poll();
                    if (next == null) {
                        scheduled = false;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException | LinkageError e) {
                    LOG.error("engine bug: action failed for allocation {}", allocId, e);
                }
            }
            pool.execute(this::drain);
        } finally {
            TaskLog.restore(TaskLog.ALLOC_ID, previous);
        }
    }
}
