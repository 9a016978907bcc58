package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task of an allocation as an explicit state machine. Each step starts work and returns; the completion
 * (driver start, exit, timer) is posted back to the allocation's serial executor and drives the next step.
 * No thread ever waits for a task. Every method runs on that serial executor.
 *
 * <pre>
 * NOT_STARTED -start-> STARTING -started-> RUNNING -exit-> (restart?) RESTART_WAIT -timer-> STARTING
 *                                            |                        \-> DEAD
 *                                            +-kill / max_runtime-> KILLING -exit-> DEAD
 * </pre>
 *
 * Before a run, the prestart hooks assembled in {@link TaskHooks} prepare it (task dir, env, ...), run by a
 * {@link PrestartChain}. The runner keeps the state machine only; its parts are in their own files: the recorded
 * state and events ({@link TaskRecord}), the restart decisions ({@link RestartTracker}), the calls into the driver
 * ({@link TaskDriverCalls}), what a stop means in each step and max_runtime ({@link TaskStopper}), re-attaching
 * after an agent restart ({@link RunRecovery}). Kill escalation is in {@link KillSequence}, not in drivers:
 * kill_signal, then SIGKILL after min(kill_timeout, max_kill_timeout), so every driver gets the same semantics and
 * events.
 *
 * <p>A driver that does not answer never holds a task: a start that has not completed within the client's
 * {@code driver_start_timeout} is abandoned (a recoverable start error, the restart policy applies), and a
 * kill whose exit the driver never reports is given up a grace after SIGKILL ("lost track").
 * A start that completes after its run was abandoned is discarded: SIGKILL and destroy.
 */
final class TaskRunner {
    private static final Logger LOG = LoggerFactory.getLogger(TaskRunner.class);

    enum Step {
        NOT_STARTED,
        STARTING,
        RUNNING,
        RESTART_WAIT,
        KILLING,
        DEAD
    }

    private final Task task;
    private final TaskRunnerHost host;
    private final TaskLog log;
    private final RestartTracker restarts;

    private final TaskRecord record;
    private final TaskDriverCalls calls;
    private Step step = Step.NOT_STARTED;
    private int run;
    private Instant runStartedAt;
    private int recoveredRun = -1; // the run re-attached by recover, whose end may predate this agent
    private Instant exitedAt; // while onExited runs: the run's end, the FinishedAt of a toDead it leads to
    private boolean setupDone;
    /** A restart that is not a failure was asked for (a template re-rendered): the run's exit starts it again. */
    private boolean restartRequested;
    private final java.util.List<TaskHook> hooks;
    private final TaskStopper stop;
    private PrestartChain prestart;
    private Timers.Cancellable restartTimer;
    private Timers.Cancellable maxRuntimeTimer;
    private Timers.Cancellable startTimeoutTimer;

    TaskRunner(Task task, TaskRunnerHost host, boolean restartOnSuccess) {
        this.task = task;
        this.host = host;
        this.log = new TaskLog(LOG, host.allocId(), task.name());
        this.restarts = new RestartTracker(task.restart(), restartOnSuccess);
        this.record = new TaskRecord(log);
        this.calls = new TaskDriverCalls(task, host, log);
        this.hooks = TaskHooks.prestart(host, new TemplateHook.Task() {
            @Override
            public boolean dead() {
                return TaskRunner.this.dead();
            }

            @Override
            public void restart(TaskEvent event) {
                TaskRunner.this.restart(event);
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
                TaskRunner.this.record(event);
            }

            @Override
            public java.util.concurrent.CompletionStage<io.drover.driver.api.ExitResult> exec(
                    java.util.List<String> command, java.time.Duration timeout) {
                return calls.exec(command, timeout);
            }
        });
        this.stop = new TaskStopper(this, task, host, log, calls);
    }

    Task task() {
        return task;
    }

    String name() {
        return task.name();
    }

    TaskKind kind() {
        return task.kind();
    }

    TaskState state() {
        return record.state();
    }

    Step step() {
        return step;
    }

    boolean dead() {
        return step == Step.DEAD;
    }

    boolean failed() {
        return record.failed();
    }

    boolean everStarted() {
        return record.everStarted();
    }

    /** Whether an event of this type was recorded for the task (engine thread of its allocation). */
    boolean hasEvent(TaskEventType type) {
        return record.hasEvent(type);
    }

    boolean running() {
        return step == Step.RUNNING;
    }

    /** Records an event that the allocation decided on (Received, Sibling Task Failed, ...). */
    void record(TaskEvent event) {
        record.record(event);
        host.taskChanged(this, false);
    }

    private long now() {
        return Nanos.of(host.timers().now());
    }

    /** Starts the first run. Called once, when the lifecycle lets the task start. */
    void start() {
        if (step != Step.NOT_STARTED) {
            return;
        }
        startRun();
    }

    /**
     * A run: the prestart hooks ({@link TaskHooks}), then — the first run waits for its Task Setup event to be
     * durable — the driver's start.
     */
    private void startRun() {
        step = Step.STARTING;
        run++;
        int thisRun = run;
        boolean first = !setupDone;
        if (first) {
            setupDone = true;
            record(TaskEvents.taskSetup(now()));
        }
        TaskPrep prep = new TaskPrep(task, thisRun, first, this::record);
        prestart = new PrestartChain(hooks, prep, host.serial(), err -> prepared(prep, err));
        prestart.start();
    }

    private void prepared(TaskPrep prep, Throwable err) {
        int thisRun = prep.run();
        prestart = null;
        if (thisRun != run || step != Step.STARTING) {
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
            if (thisRun != run || step != Step.STARTING) {
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
            setupFailed("failed to prepare the task: " + describe(err));
            return;
        }
        log.warn("task prestart failed: {}", failure.getMessage());
        record(failure.event(now()));
        if (!failure.recoverable()) {
            toDead(true);
        } else if (stop.requested()) {
            toDead(false);
        } else {
            runEnded(RestartTracker.Outcome.START_ERROR_RECOVERABLE);
        }
    }

    private void callDriverStart(int thisRun, TaskPrep prep) {
        if (!calls.bind()) {
            record(TaskEvents.driverFailure(now(), "driver \"" + task.driver() + "\" is not loaded"));
            runEnded(RestartTracker.Outcome.START_ERROR_UNRECOVERABLE);
            return;
        }
        calls.newRun(thisRun);
        io.drover.driver.api.TaskConfig config;
        try {
            config = calls.config(prep);
        } catch (UnsafePathException | RuntimeException e) {
            setupFailed("failed to prepare the task: " + describe(e));
            return;
        }
        CompletionStage<TaskHandle> started = calls.start(config);
        Duration startTimeout = host.driverStartTimeout();
        startTimeoutTimer = host.timers().schedule(startTimeout,
                () -> host.serial().execute(() -> giveUpStart(thisRun,
                        "driver_start_timeout (" + GoDuration.format(startTimeout) + ")")));
        started.whenComplete((handle, err) -> host.serial().execute(() -> onStarted(thisRun, handle, err)));
    }

    /**
     * The driver did not finish starting the run within {@code within} (driver_start_timeout, or the kill timeout
     * of a stop that came meanwhile): the run is abandoned and a start that completes later is discarded. Under a
     * stop the task ends failed; otherwise it is a recoverable start error (Nomad's restart policy for driver start
     * errors).
     */
    void giveUpStart(int thisRun, String within) {
        if (thisRun != run || step != Step.STARTING) {
            return;
        }
        stop.cancelAbandon();
        cancel(startTimeoutTimer);
        record(TaskEvents.driverFailure(now(), "driver \"" + task.driver() + "\" did not finish starting the task "
                + "within " + within + "; the run is abandoned and killed if it ever starts"));
        if (stop.requested()) {
            toDead(true);
            return;
        }
        runEnded(RestartTracker.Outcome.START_ERROR_RECOVERABLE);
    }

    /** A failure before the driver was asked to start a run: Setup Failure (fails the task), then dead. */
    private void setupFailed(String message) {
        log.warn("task setup failed: {}", message);
        record(TaskEvents.setupFailure(now(), message, true));
        toDead(true);
    }

    private void onStarted(int thisRun, TaskHandle handle, Throwable err) {
        if (thisRun != run || step != Step.STARTING) {
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
            record(TaskEvents.driverFailure(now(), message));
            if (stop.requested()) {
                toDead(false);
                return;
            }
            runEnded(recoverable ? RestartTracker.Outcome.START_ERROR_RECOVERABLE
                    : RestartTracker.Outcome.START_ERROR_UNRECOVERABLE);
            return;
        }
        step = Step.RUNNING;
        runStartedAt = host.timers().now();
        host.taskHandle(this, handle);
        record.running(runStartedAt);
        record(TaskEvents.started(now()));
        watchRun(thisRun);
        host.taskChanged(this, true);
        if (stop.requested()) {
            stop.begin();
        }
    }

    /** Arms max_runtime from the run's start (persisted, so a restart neither resets nor loses it) and awaits the exit. */
    private void watchRun(int thisRun) {
        Duration limit = task.maxRuntime();
        if (limit != null) {
            Duration left = limit.minus(Duration.between(runStartedAt, host.timers().now()));
            maxRuntimeTimer = host.timers().schedule(left,
                    () -> host.urgent().execute(() -> stop.onMaxRuntime(thisRun, limit)));
        }
        CompletionStage<ExitResult> exit = calls.awaitExit();
        exit.whenComplete((result, e) -> host.serial().execute(() -> onExited(thisRun, result, e)));
    }

    private void onExited(int thisRun, ExitResult result, Throwable err) {
        if (thisRun != run || (step != Step.RUNNING && step != Step.KILLING)) {
            return;
        }
        cancel(maxRuntimeTimer);
        stop.cancelKillTimers();
        ExitResult exit = result;
        if (exit == null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            record(TaskEvents.driverFailure(now(), "lost track of the task: " + describe(cause)));
        } else {
            exitedAt = exitTime(thisRun);
            record(TaskEvents.terminated(Nanos.of(exitedAt), exit));
        }
        calls.destroy(calls.runTaskId());
        host.taskHandle(this, null);
        if (stop.requested()) {
            record(TaskEvents.killed(now(), ""));
            toDead(stop.fails());
            exitedAt = null;
            return;
        }
        if (restartRequested) {
            restartRequested = false;
            restartWait(host.timers().now(), Duration.ZERO, "");
            exitedAt = null;
            return;
        }
        runEnded(exit != null && exit.successful() ? RestartTracker.Outcome.SUCCESS
                : RestartTracker.Outcome.FAILURE);
        exitedAt = null;
    }

    /**
     * When the run ended: now, except for a re-attached run whose driver recorded its end (it ended while no agent
     * ran): {@link RunRecovery#exitTime}.
     */
    private Instant exitTime(int thisRun) {
        Instant now = host.timers().now();
        return thisRun != recoveredRun ? now : RunRecovery.exitTime(calls.completedAtNanos(), runStartedAt, now);
    }

    private static String describe(Throwable t) {
        return TaskHooks.describe(t);
    }

    private void runEnded(RestartTracker.Outcome outcome) {
        Instant now = host.timers().now();
        RestartTracker.Decision decision = restarts.decide(outcome, now);
        if (decision.restart()) {
            restartWait(now, decision.delay(), decision.reason());
            return;
        }
        if (decision.failed()) {
            record(TaskEvents.notRestarting(now(), decision.reason(), true));
        }
        toDead(decision.failed());
    }

    /** Restarting: pending until {@code delay} passed, then the next run. */
    private void restartWait(Instant now, Duration delay, String reason) {
        TaskEvent event = TaskEvents.restarting(Nanos.of(now), delay, reason);
        record.restarting(now);
        step = Step.RESTART_WAIT;
        record(event);
        restartTimer = host.timers().schedule(delay, () -> host.serial().execute(() -> {
            if (step == Step.RESTART_WAIT) {
                startRun();
            }
        }));
        host.taskChanged(this, true);
    }

    /**
     * Restarts a running task, not as a failure and not counted by its restart policy (Nomad's restart with
     * failure = false): records {@code event} (Restart Signaled), kills the run with its kill sequence, and its
     * exit starts the next run at once ("Task restarting in 0s"). Ignored unless the task runs. Not idempotent
     * while running; a second call during the kill is ignored.
     */
    void restart(TaskEvent event) {
        if (step != Step.RUNNING) {
            return;
        }
        record(event);
        restartRequested = true;
        stop.restartKill();
    }

    /**
     * Takes the state a previous agent recorded. A dead task stays dead; any other is NOT_STARTED until the
     * allocation {@linkplain #recover recovers} it, {@linkplain #lost marks it lost} or starts it. Run numbers
     * continue after the recorded runs so new task ids never collide with old ones.
     */
    void restore(TaskState stored) {
        record.restore(stored);
        step = stored.state() == TaskLifeState.DEAD ? Step.DEAD : Step.NOT_STARTED;
        setupDone = record.hasEvent(TaskEventType.TASK_SETUP);
        run = (int) record.count(TaskEventType.STARTED) + 1;
    }

    /**
     * Re-attaches to the run a previous agent started, from its persisted handle. On failure the task is
     * {@linkplain #lost lost}.
     */
    void recover(TaskHandle handle) {
        RunRecovery.Attached attached = RunRecovery.attach(calls, task.driver(), handle);
        if (attached.problem() != null) {
            lost(attached.problem());
            return;
        }
        TaskHandle recovered = attached.handle();
        // the handle is written before the Started event: an agent killed between the two leaves a run whose
        // Started event this agent records now, with the run's true start time
        boolean startedUnrecorded = record.state().state() != TaskLifeState.RUNNING;
        run++;
        calls.recoveredRun(recovered.taskId());
        recoveredRun = run;
        runStartedAt = RunRecovery.persistedStart(recovered, record.state(), host.timers().now());
        step = Step.RUNNING;
        host.taskHandle(this, recovered);
        if (startedUnrecorded) {
            record.running(runStartedAt);
            record(TaskEvents.started(Nanos.of(runStartedAt)));
        }
        watchRun(run);
        host.taskChanged(this, true);
    }

    /** A task that was live when the previous agent died and cannot be re-attached: failed, with the reason. */
    void lost(String reason) {
        if (step == Step.DEAD) {
            return;
        }
        record(TaskEvents.notRecovered(now(), reason));
        host.taskHandle(this, null);
        toDead(true);
    }

    /**
     * Stops the task ({@link TaskStopper#kill}): kill_signal, then SIGKILL after the kill timeout. A task that never
     * started just becomes dead. Idempotent.
     *
     * @param reason shown in the Killing event ("Killing task: reason"), empty for the usual message
     */
    void kill(String reason) {
        stop.kill(reason);
    }

    /**
     * Kills the task at once ({@link TaskStopper#killNow}): SIGKILL of its whole tree, no shutdown_delay, no
     * kill_timeout, with the usual events. For an owner that must leave no process behind ({@code drover run}
     * interrupted). Idempotent.
     */
    void killNow(String reason) {
        stop.killNow(reason);
    }

    /** Delivers a signal on the user's behalf (alloc signal). */
    void signal(String signal, String reason) {
        stop.signal(signal, reason);
    }

    // ---- for the parts (TaskStopper): serial executor only ----

    int currentRun() {
        return run;
    }

    Instant runStartedAt() {
        return runStartedAt;
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

    /** A stop during the wait before a restart: the restart is off. */
    void cancelRestartWait() {
        cancel(restartTimer);
    }

    /** The run is being killed; {@code announce}: the allocation re-evaluates. */
    void enterKilling(boolean announce) {
        step = Step.KILLING;
        if (announce) {
            host.taskChanged(this, true);
        }
    }

    /** The driver never reported the end of a SIGKILLed run: release it, the task ends failed. */
    void lostTrack() {
        calls.destroy(calls.runTaskId());
        host.taskHandle(this, null);
        toDead(true);
    }

    void toDead(boolean failed) {
        cancel(restartTimer);
        cancel(maxRuntimeTimer);
        cancel(startTimeoutTimer);
        stop.cancelTimers();
        if (prestart != null) {
            prestart.cancel();
            prestart = null;
        }
        step = Step.DEAD;
        record.dead(failed, exitedAt != null ? exitedAt : host.timers().now());
        host.taskChanged(this, true);
    }

    private static void cancel(Timers.Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }
}
