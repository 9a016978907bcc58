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
 *
 * <p>An optional {@code settled} action runs, as one of the executor's own turns (never beside an action), each
 * time the queue has run dry and before a turn yields the pool thread after its batch: the point where the
 * allocation's state is settled (the allocation persists it there, once for every action that ran since, not once
 * per action). Whatever it submits runs in the same turn.
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor pool;
    private final String allocId;
    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
    private final Runnable settled;
    private boolean scheduled;

    SerialExecutor(Executor pool, String allocId) {
        this(pool, allocId, null);
    }

    /** @param settled run when the queue ran dry or a batch ends (see the class comment); null: nothing */
    SerialExecutor(Executor pool, String allocId, Runnable settled) {
        this.pool = pool;
        this.allocId = allocId;
        this.settled = settled;
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
     * thread never carries one allocation's id into another's action. When the queue runs dry, and before the
     * turn yields after its batch, the {@code settled} action runs (still this executor's turn: {@code scheduled}
     * is set, so no other turn can start beside it); what it queued is taken by the same turn.
     */
    private void drain() {
        String previous = MDC.get(TaskLog.ALLOC_ID);
        MDC.put(TaskLog.ALLOC_ID, allocId);
        try {
            // Bounded batch per turn so one busy allocation cannot starve the others on the pool.
            for (int i = 0; i < 64; i++) {
                Runnable next = poll();
                if (next == null) {
                    settle();
                    next = pollOrEnd();
                    if (next == null) {
                        return;
                    }
                }
                run(next);
            }
            settle();
            pool.execute(this::drain);
        } finally {
            TaskLog.restore(TaskLog.ALLOC_ID, previous);
        }
    }

    private Runnable poll() {
        synchronized (queue) {
            return queue.poll();
        }
    }

    /** The next action, or null after the turn is given up (the next {@link #execute} schedules a new one). */
    private Runnable pollOrEnd() {
        synchronized (queue) {
            Runnable next = queue.poll();
            if (next == null) {
                scheduled = false;
            }
            return next;
        }
    }

    private void settle() {
        if (settled != null) {
            run(settled);
        }
    }

    private void run(Runnable action) {
        try {
            action.run();
        } catch (RuntimeException | LinkageError e) {
            LOG.error("engine bug: action failed for allocation {}", allocId, e);
        }
    }
}
