package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.time.Instant;

/**
 * A task's recorded state: the {@link TaskState} its allocation publishes, its events and the transitions of its
 * life state (pending, running, dead) with their times and counters. Each event is logged as it is recorded. The
 * record only changes the value; the {@link TaskRunner} decides when, and tells its host.
 *
 * <p>Serial executor of the allocation only. Not idempotent: every {@link #record} appends an event.
 */
final class TaskRecord {
    private final TaskLog log;
    private TaskState state = TaskState.initial();

    TaskRecord(TaskLog log) {
        this.log = log;
    }

    TaskState state() {
        return state;
    }

    boolean failed() {
        return state.failed();
    }

    boolean everStarted() {
        return state.startedAt() != null;
    }

    boolean hasEvent(TaskEventType type) {
        return state.events().stream().anyMatch(e -> e.type() == type);
    }

    long count(TaskEventType type) {
        return state.events().stream().filter(e -> e.type() == type).count();
    }

    /** Appends an event, and logs it. */
    void record(TaskEvent event) {
        log.info("Task event: type={} msg=\"{}\" failed={}", event.type().wireName(), event.displayMessage(),
                event.failsTask());
        state = state.withEvent(event);
    }

    /** A run started at {@code at}: running, StartedAt set, FinishedAt cleared. */
    void running(Instant at) {
        state = new TaskState(TaskLifeState.RUNNING, state.failed(), state.restarts(), state.lastRestart(), at, null,
                state.events());
    }

    /** The restart policy restarts the task: pending again, one more restart, at {@code now}. */
    void restarting(Instant now) {
        state = new TaskState(TaskLifeState.PENDING, state.failed(), state.restarts() + 1, now, state.startedAt(),
                state.finishedAt(), state.events());
    }

    /** The task is dead, failed if {@code failed} or already failed, finished at {@code at}. */
    void dead(boolean failed, Instant at) {
        state = new TaskState(TaskLifeState.DEAD, failed || state.failed(), state.restarts(), state.lastRestart(),
                state.startedAt(), at, state.events());
    }

    /** The state a previous agent recorded. */
    void restore(TaskState stored) {
        state = stored;
    }
}
