package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
 * {@link PrestartChain}. Kill escalation is in {@link KillSequence}, not in drivers: kill_signal, then SIGKILL
 * after min(kill_timeout, max_kill_timeout), so every driver gets the same semantics and events.
 *
 * <p>A driver that does not answer never holds a task: a start that has not completed within the client's
 * {@code driver_start_timeout} is abandoned (a recoverable start error, the restart policy applies), and a
 * kill whose exit the driver never reports is given up {@link #exitGrace() a grace} after SIGKILL ("lost track").
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

    private TaskState state = TaskState.initial();
    private Step step = Step.NOT_STARTED;
    private int run;
    private String runTaskId;
    private TaskDriver driver;
    private Instant runStartedAt;
    private int recoveredRun = -1; // the run re-attached by recover, whose end may predate this agent
    private Instant exitedAt; // while onExited runs: the run's end, the FinishedAt of a toDead it leads to
    private boolean setupDone;
    private boolean killRequested;
    private boolean maxRuntimeExceeded;
    private final List<TaskHook> hooks;
    private final KillSequence killer;
    private PrestartChain prestart;
    private Timers.Cancellable restartTimer;
    private Timers.Cancellable maxRuntimeTimer;
    private Timers.Cancellable abandonStartTimer;
    private Timers.Cancellable startTimeoutTimer;

    TaskRunner(Task task, TaskRunnerHost host, boolean restartOnSuccess) {
        this.task = task;
        this.host = host;
        this.log = new TaskLog(LOG, host.allocId(), task.name());
        this.restarts = new RestartTracker(task.restart(), restartOnSuccess);
        this.hooks = TaskHooks.prestart(host);
        this.killer = new KillSequence(task, host, log, new KillSequence.Target() {
            @Override
            public boolean killing(int r) {
                return r == run && step == Step.KILLING;
            }

            @Override
            public void record(TaskEvent event) {
                TaskRunner.this.record(event);
            }

            @Override
            public void lostTrack(int r) {
                destroyRun(runTaskId);
                host.taskHandle(TaskRunner.this, null);
                toDead(true);
            }
        });
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
        return state;
    }

    Step step() {
        return step;
    }

    boolean dead() {
        return step == Step.DEAD;
    }

    boolean failed() {
        return state.failed();
    }

    boolean everStarted() {
        return state.startedAt() != null;
    }

    /** Whether an event of this type was recorded for the task (engine thread of its allocation). */
    boolean hasEvent(io.drover.core.event.TaskEventType type) {
        return state.events().stream().anyMatch(e -> e.type() == type);
    }

    boolean running() {
        return step == Step.RUNNING;
    }

    /** Records an event that the allocation decided on (Received, Sibling Task Failed, ...). */
    void record(TaskEvent event) {
        log.info("Task event: type={} msg=\"{}\" failed={}", event.type().wireName(), event.displayMessage(),
                event.failsTask());
        state = state.withEvent(event);
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
        } else if (killRequested) {
            toDead(false);
        } else {
            runEnded(RestartTracker.Outcome.START_ERROR_RECOVERABLE);
        }
    }

    private void callDriverStart(int thisRun, TaskPrep prep) {
        driver = host.driver(task.driver()).orElse(null);
        if (driver == null) {
            record(TaskEvents.driverFailure(now(), "driver \"" + task.driver() + "\" is not loaded"));
            runEnded(RestartTracker.Outcome.START_ERROR_UNRECOVERABLE);
            return;
        }
        runTaskId = host.allocId() + "/" + task.name() + "/" + thisRun;
        TaskConfig config;
        try {
            config = taskConfig(prep);
        } catch (UnsafePathException | RuntimeException e) {
            setupFailed("failed to prepare the task: " + describe(e));
            return;
        }
        CompletionStage<TaskHandle> started;
        try {
            started = driver.start(config);
        } catch (RuntimeException | LinkageError e) {
            // a plugin's bug, or a class missing from its JAR: the task fails, the engine goes on
            log.warn("driver {} threw from start of task {}", task.driver(), task.name(), e);
            started = java.util.concurrent.CompletableFuture.failedFuture(
                    new DriverException("driver error: " + e, false, e));
        }
        if (started == null) {
            started = java.util.concurrent.CompletableFuture.failedFuture(
                    new DriverException("driver error: start returned no stage", false));
        }
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
    private void giveUpStart(int thisRun, String within) {
        if (thisRun != run || step != Step.STARTING) {
            return;
        }
        cancel(abandonStartTimer);
        cancel(startTimeoutTimer);
        record(TaskEvents.driverFailure(now(), "driver \"" + task.driver() + "\" did not finish starting the task "
                + "within " + within + "; the run is abandoned and killed if it ever starts"));
        if (killRequested) {
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

    private TaskConfig taskConfig(TaskPrep prep) throws UnsafePathException {
        Map<String, String> env = prep.env();
        LogConfig logs = task.logs() == null ? LogConfig.DEFAULT : task.logs();
        return new TaskConfig(runTaskId, host.allocId(), env.getOrDefault("NOMAD_JOB_ID", ""),
                env.getOrDefault("NOMAD_GROUP_NAME", ""), task.name(), prep.config(), env,
                host.dirs().task(task.name()), host.dirs().shared(), host.dirs().log(task.name(), "stdout"),
                host.dirs().log(task.name(), "stderr"), Math.max(1, logs.maxFiles()),
                (long) Math.max(1, logs.maxFileSizeMb()) << 20);
    }

    private void onStarted(int thisRun, TaskHandle handle, Throwable err) {
        if (thisRun != run || step != Step.STARTING) {
            if (handle != null) {
                discard(handle.taskId());
            }
            return;
        }
        cancel(abandonStartTimer);
        cancel(startTimeoutTimer);
        if (err != null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            boolean recoverable = cause instanceof DriverException de && de.recoverable();
            String message = cause instanceof DriverException ? cause.getMessage() : String.valueOf(cause);
            record(TaskEvents.driverFailure(now(), message));
            if (killRequested) {
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
        state = new TaskState(TaskLifeState.RUNNING, state.failed(), state.restarts(), state.lastRestart(),
                runStartedAt, null, state.events());
        record(TaskEvents.started(now()));
        watchRun(thisRun);
        host.taskChanged(this, true);
        if (killRequested) {
            beginKill();
        }
    }

    /** Arms max_runtime from the run's start (persisted, so a restart neither resets nor loses it) and awaits the exit. */
    private void watchRun(int thisRun) {
        Duration limit = task.maxRuntime();
        if (limit != null) {
            Duration left = limit.minus(Duration.between(runStartedAt, host.timers().now()));
            maxRuntimeTimer = host.timers().schedule(left,
                    () -> host.urgent().execute(() -> onMaxRuntime(thisRun, limit)));
        }
        CompletionStage<ExitResult> exit;
        try {
            exit = driver.awaitExit(runTaskId);
        } catch (DriverException | RuntimeException | LinkageError e) {
            exit = java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        if (exit == null) {
            exit = java.util.concurrent.CompletableFuture.failedFuture(
                    new DriverException("awaitExit returned no stage", false));
        }
        exit.whenComplete((result, e) -> host.serial().execute(() -> onExited(thisRun, result, e)));
    }

    private void onExited(int thisRun, ExitResult result, Throwable err) {
        if (thisRun != run || (step != Step.RUNNING && step != Step.KILLING)) {
            return;
        }
        cancel(maxRuntimeTimer);
        killer.cancelTimers();
        ExitResult exit = result;
        if (exit == null) {
            Throwable cause = err instanceof CompletionException && err.getCause() != null ? err.getCause() : err;
            record(TaskEvents.driverFailure(now(), "lost track of the task: " + describe(cause)));
        } else {
            exitedAt = exitTime(thisRun);
            record(TaskEvents.terminated(Nanos.of(exitedAt), exit));
        }
        destroyRun(runTaskId);
        host.taskHandle(this, null);
        if (killRequested) {
            record(TaskEvents.killed(now(), ""));
            toDead(maxRuntimeExceeded);
            exitedAt = null;
            return;
        }
        runEnded(exit != null && exit.successful() ? RestartTracker.Outcome.SUCCESS
                : RestartTracker.Outcome.FAILURE);
        exitedAt = null;
    }

    /**
     * When the run ended: now, except for a re-attached run whose driver recorded its end (it ended while no agent
     * ran), whose time is taken from {@link io.drover.driver.api.TaskStatus#completedAtNanos()}, kept between the run's start and now.
     */
    private Instant exitTime(int thisRun) {
        Instant now = host.timers().now();
        if (thisRun != recoveredRun) {
            return now;
        }
        long at;
        try {
            at = driver.inspect(runTaskId).completedAtNanos();
        } catch (TaskNotFoundException | RuntimeException | LinkageError e) {
            return now;
        }
        if (at <= 0) {
            return now;
        }
        Instant t = Nanos.toInstant(at);
        if (t.isAfter(now)) {
            return now;
        }
        return runStartedAt != null && t.isBefore(runStartedAt) ? runStartedAt : t;
    }

    /** Releases a run in its driver; a driver that throws is logged, never propagated. */
    private void destroyRun(String taskId) {
        try {
            driver.destroy(taskId);
        } catch (RuntimeException | LinkageError e) {
            log.warn("driver {} failed to destroy task {}: {}", task.driver(), taskId, describe(e));
        }
    }

    private static String describe(Throwable t) {
        return TaskHooks.describe(t);
    }

    private void runEnded(RestartTracker.Outcome outcome) {
        Instant now = host.timers().now();
        RestartTracker.Decision decision = restarts.decide(outcome, now);
        if (decision.restart()) {
            TaskEvent event = TaskEvents.restarting(Nanos.of(now), decision.delay(), decision.reason());
            state = new TaskState(TaskLifeState.PENDING, state.failed(), state.restarts() + 1, now,
                    state.startedAt(), state.finishedAt(), state.events());
            step = Step.RESTART_WAIT;
            record(event);
            restartTimer = host.timers().schedule(decision.delay(), () -> host.serial().execute(() -> {
                if (step == Step.RESTART_WAIT) {
                    startRun();
                }
            }));
            host.taskChanged(this, true);
            return;
        }
        if (decision.failed()) {
            record(TaskEvents.notRestarting(now(), decision.reason(), true));
        }
        toDead(decision.failed());
    }

    private void onMaxRuntime(int thisRun, Duration limit) {
        boolean inShutdownDelay = step == Step.KILLING && !killer.signalSent();
        if (thisRun != run || (step != Step.RUNNING && !inShutdownDelay)) {
            return;
        }
        maxRuntimeExceeded = true;
        Duration actual = Duration.between(runStartedAt, host.timers().now());
        record(TaskEvents.maxRuntimeExceeded(now(), limit, actual));
        String reason = "exceeded max_runtime of " + GoDuration.format(limit);
        if (inShutdownDelay) {
            // already being stopped, but still waiting out its shutdown_delay: the limit cuts the wait short
            killer.cutDelayShort(thisRun, reason);
            return;
        }
        kill(reason);
    }

    /**
     * Takes the state a previous agent recorded. A dead task stays dead; any other is NOT_STARTED until the
     * allocation {@linkplain #recover recovers} it, {@linkplain #lost marks it lost} or starts it. Run numbers
     * continue after the recorded runs so new task ids never collide with old ones.
     */
    void restore(TaskState stored) {
        state = stored;
        step = stored.state() == io.drover.core.state.TaskLifeState.DEAD ? Step.DEAD : Step.NOT_STARTED;
        setupDone = stored.events().stream()
                .anyMatch(e -> e.type() == io.drover.core.event.TaskEventType.TASK_SETUP);
        run = (int) stored.events().stream()
                .filter(e -> e.type() == io.drover.core.event.TaskEventType.STARTED).count() + 1;
    }

    /**
     * Re-attaches to the run a previous agent started, from its persisted handle. On failure the task is
     * {@linkplain #lost lost}.
     */
    void recover(TaskHandle handle) {
        driver = host.driver(task.driver()).orElse(null);
        if (driver == null) {
            lost("driver \"" + task.driver() + "\" is not loaded");
            return;
        }
        if (!driver.capabilities().recover()) {
            lost("driver \"" + task.driver() + "\" cannot re-attach to tasks");
            return;
        }
        TaskHandle recovered;
        try {
            recovered = driver.recover(handle);
        } catch (DriverException | RuntimeException e) {
            lost(e.getMessage() == null ? e.toString() : e.getMessage());
            return;
        }
        // the handle is written before the Started event: an agent killed between the two leaves a run whose
        // Started event this agent records now, with the run's true start time
        boolean startedUnrecorded = state.state() != TaskLifeState.RUNNING;
        run++;
        runTaskId = recovered.taskId();
        recoveredRun = run;
        runStartedAt = persistedStart(recovered);
        step = Step.RUNNING;
        host.taskHandle(this, recovered);
        if (startedUnrecorded) {
            state = new TaskState(TaskLifeState.RUNNING, state.failed(), state.restarts(), state.lastRestart(),
                    runStartedAt, null, state.events());
            record(TaskEvents.started(Nanos.of(runStartedAt)));
        }
        watchRun(run);
        host.taskChanged(this, true);
    }

    /**
     * When the re-attached run started, as the previous agent persisted it: the handle's start time (this run's
     * own), else the recorded StartedAt. max_runtime counts from here, so a restarted agent neither resets a
     * run's deadline nor loses it; a deadline that passed while no agent ran fires at once.
     */
    private Instant persistedStart(TaskHandle recovered) {
        if (recovered.startedAtNanos() > 0) {
            return Nanos.toInstant(recovered.startedAtNanos());
        }
        return state.startedAt() != null ? state.startedAt() : host.timers().now();
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
     * Stops the task: kill_signal, then SIGKILL after the kill timeout. A task that never started just
     * becomes dead. Idempotent.
     *
     * @param reason shown in the Killing event ("Killing task: reason"), empty for the usual message
     */
    void kill(String reason) {
        switch (step) {
            case NOT_STARTED -> toDead(false);
            case STARTING -> {
                if (prestart != null && prestart.waiting()) {
                    // waiting on a hook's work (a download): nothing runs yet, the work is cancelled
                    prestart.cancel();
                    prestart = null;
                    killRequested = true;
                    record(TaskEvents.killed(now(), ""));
                    toDead(false);
                    return;
                }
                startingKill(reason);
            }
            case RESTART_WAIT -> {
                cancel(restartTimer);
                record(TaskEvents.killed(now(), ""));
                toDead(false);
            }
            case RUNNING -> {
                killRequested = true;
                killer.reason(reason);
                step = Step.KILLING;
                host.taskChanged(this, true);
                beginKill();
            }
            case KILLING, DEAD -> {
                // already on its way out
            }
        }
    }

    private void startingKill(String reason) {
        if (!killRequested) {
            // a driver whose start hangs must not hold the stop forever: after the kill timeout the
            // run is abandoned (a start that completes later is discarded: SIGKILL and destroy)
            int thisRun = run;
            Duration timeout = killer.timeout();
            abandonStartTimer = host.timers().schedule(timeout,
                    () -> host.serial().execute(() -> giveUpStart(thisRun,
                            "the kill timeout (" + GoDuration.format(timeout) + ") of a stop")));
        }
        killRequested = true;
        killer.reason(reason);
    }

    /**
     * Kills the task at once: SIGKILL of its whole tree through the driver (no shutdown_delay, no kill_timeout),
     * with the usual events (Killing with signal SIGKILL, then Terminated and Killed once the driver reports the
     * exit). A task already being killed is escalated now. A task that never started just becomes dead. For an
     * owner that must leave no process behind ({@code drover run} interrupted). Idempotent.
     *
     * @param reason shown in the Killing event
     */
    void killNow(String reason) {
        switch (step) {
            case NOT_STARTED, RESTART_WAIT -> {
                killer.force();
                kill(reason);
            }
            case STARTING -> {
                kill(reason); // arms the abandon timer with the task's kill timeout: a start normally completes first
                killer.force(); // the run is SIGKILLed as soon as its start completes
            }
            case RUNNING -> {
                killer.force();
                kill(reason);
            }
            case KILLING -> killer.forceNow(run, reason);
            case DEAD -> {
                // nothing left
            }
        }
    }

    private void beginKill() {
        step = Step.KILLING;
        killer.begin(run, driver, runTaskId, maxRuntimeExceeded);
    }

    /** Delivers a signal on the user's behalf (alloc signal). */
    void signal(String signal, String reason) {
        if (step != Step.RUNNING && step != Step.KILLING) {
            return;
        }
        record(TaskEvents.signaling(now(), signal, reason));
        killer.deliver(driver, runTaskId, signal);
    }

    private void discard(String taskId) {
        try {
            driver.signal(taskId, Signals.SIGKILL);
        } catch (DriverException | RuntimeException | LinkageError e) {
            log.debug("discarding stale run {}: {}", taskId, describe(e));
        }
        destroyRun(taskId);
    }

    private void toDead(boolean failed) {
        cancel(restartTimer);
        cancel(maxRuntimeTimer);
        cancel(abandonStartTimer);
        cancel(startTimeoutTimer);
        killer.cancelTimers();
        if (prestart != null) {
            prestart.cancel();
            prestart = null;
        }
        step = Step.DEAD;
        state = new TaskState(TaskLifeState.DEAD, failed || state.failed(), state.restarts(), state.lastRestart(),
                state.startedAt(), exitedAt != null ? exitedAt : host.timers().now(), state.events());
        host.taskChanged(this, true);
    }

    private static void cancel(Timers.Cancellable c) {
        if (c != null) {
            c.cancel();
        }
    }
}
