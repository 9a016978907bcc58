package io.drover.core.engine;

import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskHandle;
import java.time.Instant;

/**
 * Re-attaching a {@link TaskRunner} to a run a previous agent started, and the times of such a run: the answers
 * a restarted agent needs from the persisted handle, the record and the driver. Pure functions over their
 * arguments, except {@link #attach}, which asks the driver (serial executor of the allocation, not blocking on
 * the task; not idempotent: a driver may re-attach once).
 */
final class RunRecovery {
    private RunRecovery() {}

    /** The outcome of {@link #attach}: the re-attached handle, or why the task is lost. */
    record Attached(TaskHandle handle, String problem) {}

    /** Binds the task's driver and re-attaches the run of {@code handle}, or says why it cannot. */
    static Attached attach(TaskDriverCalls calls, String driverName, TaskHandle handle) {
        if (!calls.bind()) {
            return new Attached(null, "driver \"" + driverName + "\" is not loaded");
        }
        if (!calls.driver().capabilities().recover()) {
            return new Attached(null, "driver \"" + driverName + "\" cannot re-attach to tasks");
        }
        try {
            return new Attached(calls.recover(handle), null);
        } catch (DriverException | RuntimeException e) {
            return new Attached(null, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /**
     * When the re-attached run started, as the previous agent persisted it: the handle's start time (this run's
     * own), else the recorded StartedAt, else now. max_runtime counts from here, so a restarted agent neither
     * resets a run's deadline nor loses it; a deadline that passed while no agent ran fires at once.
     */
    static Instant persistedStart(TaskHandle recovered, TaskState state, Instant now) {
        if (recovered.startedAtNanos() > 0) {
            return Nanos.toInstant(recovered.startedAtNanos());
        }
        return state.startedAt() != null ? state.startedAt() : now;
    }

    /**
     * When a re-attached run ended: the end its driver recorded ({@code completedAtNanos}, 0 when unknown; it may
     * have ended while no agent ran), kept between the run's start and now.
     */
    static Instant exitTime(long completedAtNanos, Instant runStartedAt, Instant now) {
        if (completedAtNanos <= 0) {
            return now;
        }
        Instant t = Nanos.toInstant(completedAtNanos);
        if (t.isAfter(now)) {
            return now;
        }
        return runStartedAt != null && t.isBefore(runStartedAt) ? runStartedAt : t;
    }
}
