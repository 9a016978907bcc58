package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * How a {@link TaskRunner}'s run gets started: its prestart hooks ({@link TaskHooks}, run by a
 * {@link PrestartChain}), the wait for the first run's Task Setup event to be durable, the driver's start and its
 * {@code driver_start_timeout}, and what each failure on the way means (a hook's event and the restart policy, a
 * Setup Failure, a Driver Failure). The runner owns the step; this part reports back with
 * {@link TaskRunner#runStarted}, {@link TaskRunner#runEnded} and {@link TaskRunner#toDead}, and ignores whatever
 * completes for a run the runner no longer starts ({@link TaskRunner#starting}).
 *
 * <p>Serial executor of the allocation only (driver stages and timers hop onto it). {@link #cancel} is
 * idempotent; {@link #begin} and {@link #reattach} are not (each call runs the hooks once more).
 */
final class TaskStart {
    private final TaskRunner runner;
    private final Task task;
    private final TaskRunnerHost host;
    private final TaskLog log;
    private final TaskDriverCalls calls;
    private final TaskStopper stop;
    private final List<TaskHook> hooks;

    private PrestartChain prestart;
    /** The hooks' {@link TaskHook#reattach} for a re-attached run, while they work. */
    private PrestartChain reattaching;
    private Timers.Cancellable startTimeoutTimer;

    TaskStart(TaskRunner runner, Task task, TaskRunnerHost host, TaskLog log, TaskDriverCalls calls,
            TaskStopper stop) {
        this.runner = runner;
        this.task = task;
        this.host = host;
        this.log = log;
        this.calls = calls;
        this.stop = stop;
        this.hooks = TaskHooks.prestart(host, new TemplateHook.Task() {
            @Override
            public boolean dead() {
                return runner.dead();
            }

            @Override
            public void restart(TaskEvent event) {
                runner.restart(event);
            }

            @Override
            public void signal(TaskEvent event, String signal) {
                stop.signal(event, signal);
            }

            @Override
            public void fail(String reason) {
                stop.killFailing(reason);
            }

            @Override
            public void record(TaskEvent event) {
                runner.record(event);
            }

            @Override
            public java.util.concurrent.CompletionStage<io.drover.driver.api.ExitResult> exec(
                    java.util.List<String> command, java.time.Duration timeout) {
                return calls.exec(command, timeout);
            }
        });
    }

    /**
     * Starts run {@code thisRun} (the runner is STARTING it): the prestart hooks, then — the first run waits for
     * its Task Setup event to be durable — the driver's start.
     */
    void begin(int thisRun, boolean first) {
        TaskPrep prep = new TaskPrep(task, thisRun, first, runner::record);
        prestart = new PrestartChain(hooks, prep, host.serial(), err -> prepared(prep, err));
        prestart.start();
    }

    /**
     * Run {@code thisRun}, which a previous agent started, was re-attached (the runner is RUNNING it): each hook's
     * {@link TaskHook#reattach} in order (the env, then the templates rendered again and watched). Nothing is
     * started; a hook that fails kills the run, which ends failed, with the hook's reason.
     */
    void reattach(int thisRun) {
        TaskPrep prep = new TaskPrep(task, thisRun, false, runner::record);
        PrestartChain chain = new PrestartChain(hooks, prep, host.serial(), err -> reattached(thisRun, err), true);
        reattaching = chain;
        chain.start();
    }

    private void reattached(int thisRun, Throwable err) {
        reattaching = null;
        if (err == null || !runner.live(thisRun)) {
            return;
        }
        log.warn("re-attached task's hooks failed: {}", TaskHooks.describe(err));
        stop.killFailing(TaskHooks.describe(err));
    }

    private void prepared(TaskPrep prep, Throwable err) {
        int thisRun = prep.run();
        prestart = null;
        if (!runner.starting(thisRun)) {
            return;
        }
        if (err != null) {
            prestartFailed(err);
            return;
        }
        if (!prep.firstRun()) {
            callDriverStart(thisRun, prep);
            return;
        }
        // The intent before the run: a later agent that finds Task Setup but no handle knows a run may have
        // started (it kills it and marks the task Not Recovered) instead of starting the task a second time.
        host.afterDurable(() -> {
            if (!runner.starting(thisRun)) {
                return;
            }
            // a stop that came meanwhile is handled as before this wait: the run starts, then is killed
            // (Started, Killing, Terminated, Killed), unless the start was abandoned
            callDriverStart(thisRun, prep);
        });
    }

    /** A prestart hook failed: its event, then the restart policy (recoverable) or dead and failed. */
    private void prestartFailed(Throwable err) {
        if (!(err instanceof HookFailure failure)) {
            setupFailed("failed to prepare the task: " + TaskHooks.describe(err));
            return;
        }
        log.warn("task prestart failed: {}", failure.getMessage());
        runner.record(failure.event(now()));
        if (!failure.recoverable()) {
            runner.toDead(true);
        } else if (stop.requested()) {
            runner.toDead(false);
        } else {
            runner.runEnded(RestartTracker.Outcome.START_ERROR_RECOVERABLE);
        }
    }

    private void callDriverStart(int thisRun, TaskPrep prep) {
        if (!calls.bind()) {
            runner.record(TaskEvents.driverFailure(now(), "driver \"" + task.driver() + "\" is not loaded"));
            runner.runEnded(RestartTracker.Outcome.START_ERROR_UNRECOVERABLE);
            return;
        }
        calls.newRun(thisRun);
        TaskConfig config;
        try {
            config = calls.config(prep);
        } catch (UnsafePathException | RuntimeException e) {
            setupFailed("failed to prepare the task: " + TaskHooks.describe(e));
            return;
        }
        CompletionStage<TaskHandle> started = calls.start(config);
        Duration startTimeout = host.driverStartTimeout();
        startTimeoutTimer = host.timers().schedule(startTimeout,
                () -> host.serial().execute(() -> giveUp(thisRun,
                        "driver_start_timeout (" + GoDuration.format(startTimeout) + ")")));
        started.whenComplete((handle, err) -> host.serial().execute(() -> onStarted(thisRun, handle, err)));
    }

    /**
     * The driver did not finish starting the run within {@code within} (driver_start_timeout, or the kill timeout
     * of a stop that came meanwhile): the run is abandoned and a start that completes later is discarded. Under a
     * stop the task ends failed; otherwise it is a recoverable start error (Nomad's restart policy for driver start
     * errors).
     */
    void giveUp(int thisRun, String within) {
        if (!runner.starting(thisRun)) {
            return;
        }
        stop.cancelAbandon();
        cancel(startTimeoutTimer);
        runner.record(TaskEvents.driverFailure(now(), "driver \"" + task.driver()
                + "\" did not finish starting the task within " + within
                + "; the run is abandoned and killed if it ever starts"));
        if (stop.requested()) {
            runner.toDead(true);
            return;
        }
        runner.runEnded(RestartTracker.Outcome.START_ERROR_RECOVERABLE);
    }

    /** A failure before the driver was asked to start a run: Setup Failure (fails the task), then dead. */
    private void setupFailed(String message) {
        log.warn("task setup failed: {}", message);
        runner.record(TaskEvents.setupFailure(now(), message, true));
        runner.toDead(true);
    }

    private void onStarted(int thisRun, TaskHandle handle, Throwable err) {
        if (!runner.starting(thisRun)) {
            if (handle != null) {
                calls.discard(handle.taskId());
            }
            return;
        }
        stop.cancelAbandon();
        cancel(startTimeoutTimer);
        if (err != null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            boolean recoverable = cause instanceof DriverException de && de.recoverable();
            String message = cause instanceof DriverException ? cause.getMessage() : String.valueOf(cause);
            runner.record(TaskEvents.driverFailure(now(), message));
            if (stop.requested()) {
                runner.toDead(false);
                return;
            }
            runner.runEnded(recoverable ? RestartTracker.Outcome.START_ERROR_RECOVERABLE
                    : RestartTracker.Outcome.START_ERROR_UNRECOVERABLE);
            return;
        }
        runner.runStarted(thisRun, handle);
    }

    /** Cancels the prestart hooks if they wait on work (a download): true when they did, nothing runs yet. */
    boolean cancelWaitingPrestart() {
        if (prestart != null && prestart.waiting()) {
            prestart.cancel();
            prestart = null;
            return true;
        }
        return false;
    }

    /** The task is dead: no start timeout, no hook left running. */
    void cancel() {
        cancel(startTimeoutTimer);
        if (prestart != null) {
            prestart.cancel();
            prestart = null;
        }
        if (reattaching != null) {
            reattaching.cancel();
            reattaching = null;
        }
    }

    private long now() {
        return Nanos.of(host.timers().now());
    }

    private static void cancel(Timers.Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }
}
