package io.drover.core.engine;

import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.time.Nanos;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * A started run of a {@link TaskRunner}: its max_runtime deadline and its exit. The exit is recorded (Terminated
 * at the run's end, or a Driver Failure when the driver lost it), the run is released in its driver and its
 * persisted handle cleared; then the runner decides what follows ({@link TaskRunner#runExited}). An exit of a run
 * the runner no longer watches ({@link TaskRunner#live}) is ignored.
 *
 * <p>Serial executor of the allocation only (the driver's exit stage and the max_runtime timer hop onto it).
 * {@link #cancel} is idempotent; {@link #watch} is not (each call awaits the exit once more).
 */
final class RunWatch {
    private final TaskRunner runner;
    private final Task task;
    private final TaskRunnerHost host;
    private final TaskDriverCalls calls;
    private final TaskStopper stop;

    private Timers.Cancellable maxRuntimeTimer;
    private int recoveredRun = -1; // the run re-attached by recovery, whose end may predate this agent

    RunWatch(TaskRunner runner, Task task, TaskRunnerHost host, TaskDriverCalls calls, TaskStopper stop) {
        this.runner = runner;
        this.task = task;
        this.host = host;
        this.calls = calls;
        this.stop = stop;
    }

    /**
     * Arms max_runtime from the run's start {@code startedAt} (persisted, so a restart neither resets nor loses it)
     * and awaits the exit. {@code recovered}: the run was re-attached after an agent restart.
     */
    void watch(int thisRun, Instant startedAt, boolean recovered) {
        if (recovered) {
            recoveredRun = thisRun;
        }
        Duration limit = task.maxRuntime();
        if (limit != null) {
            Duration left = limit.minus(Duration.between(startedAt, host.timers().now()));
            maxRuntimeTimer = host.timers().schedule(left,
                    () -> host.urgent().execute(() -> stop.onMaxRuntime(thisRun, limit)));
        }
        CompletionStage<ExitResult> exit = calls.awaitExit();
        exit.whenComplete((result, e) -> host.serial().execute(() -> onExited(thisRun, startedAt, result, e)));
    }

    private void onExited(int thisRun, Instant startedAt, ExitResult result, Throwable err) {
        if (!runner.live(thisRun)) {
            return;
        }
        cancel();
        stop.cancelKillTimers();
        Instant exitedAt = null;
        if (result == null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            runner.record(TaskEvents.driverFailure(now(), "lost track of the task: " + TaskHooks.describe(cause)));
        } else {
            exitedAt = exitTime(thisRun, startedAt);
            runner.record(TaskEvents.terminated(Nanos.of(exitedAt), result));
        }
        calls.destroy(calls.runTaskId());
        host.taskHandle(runner, null);
        runner.runExited(result, exitedAt);
    }

    /**
     * When the run ended: now, except for a re-attached run whose driver recorded its end (it ended while no agent
     * ran): {@link RunRecovery#exitTime}.
     */
    private Instant exitTime(int thisRun, Instant startedAt) {
        Instant now = host.timers().now();
        return thisRun != recoveredRun ? now : RunRecovery.exitTime(calls.completedAtNanos(), startedAt, now);
    }

    /** The run is over or the task dead: max_runtime no longer applies. */
    void cancel() {
        if (maxRuntimeTimer != null) {
            maxRuntimeTimer.cancel();
        }
    }

    private long now() {
        return Nanos.of(host.timers().now());
    }
}
