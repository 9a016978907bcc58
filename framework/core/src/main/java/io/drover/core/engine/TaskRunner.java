package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
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
 * The runner keeps the state machine only; its parts are in their own files: starting a run (prestart hooks, the
 * wait for Task Setup to be durable, the driver's start and its timeout: {@link TaskStart}), a started run's
 * max_runtime and exit ({@link RunWatch}), the recorded state and events ({@link TaskRecord}), the restart
 * decisions ({@link RestartTracker}), the calls into the driver ({@link TaskDriverCalls}), what a stop means in
 * each step and max_runtime ({@link TaskStopper}), re-attaching after an agent restart ({@link RunRecovery}).
 * Kill escalation is in {@link KillSequence}, not in drivers: kill_signal, then SIGKILL after min(kill_timeout,
 * max_kill_timeout), so every driver gets the same semantics and events.
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
    private Instant exitedAt; // while runExited runs: the run's end, the FinishedAt of a toDead it leads to
    private boolean setupDone;
    /** A restart that is not a failure was asked for (a template re-rendered): the run's exit starts it again. */
    private boolean restartRequested;
    private final TaskStopper stop;
    private final TaskStart starter;
    private final RunWatch watch;
    private Timers.Cancellable restartTimer;

    TaskRunner(Task task, TaskRunnerHost host, boolean restartOnSuccess) {
        this.task = task;
        this.host = host;
        this.log = new TaskLog(LOG, host.allocId(), task.name());
        this.restarts = new RestartTracker(task.restart(), restartOnSuccess);
        this.record = new TaskRecord(log);
        this.calls = new TaskDriverCalls(task, host, log);
        this.stop = new TaskStopper(this, task, host, log, calls);
        this.starter = new TaskStart(this, task, host, log, calls, stop);
        this.watch = new RunWatch(this, task, host, calls, stop);
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
        starter.begin(thisRun, first);
    }

    /** Whether run {@code thisRun} is the one being started (what {@link TaskStart}'s completions check). */
    boolean starting(int thisRun) {
        return thisRun == run && step == Step.STARTING;
    }

    /**
     * The driver did not finish starting the run within {@code within}: {@link TaskStart#giveUp} (from
     * {@link TaskStopper}'s abandon timer).
     */
    void giveUpStart(int thisRun, String within) {
        starter.giveUp(thisRun, within);
    }

    /** The driver started run {@code thisRun} ({@link TaskStart}): RUNNING, its handle persisted, its exit awaited. */
    void runStarted(int thisRun, TaskHandle handle) {
        step = Step.RUNNING;
        runStartedAt = host.timers().now();
        host.taskHandle(this, handle);
        record.running(runStartedAt);
        record(TaskEvents.started(now()));
        watch.watch(thisRun, runStartedAt, false);
        host.taskChanged(this, true);
        if (stop.requested()) {
            stop.begin();
        }
    }

    /** Whether run {@code thisRun} is the one running or being killed (what {@link RunWatch}'s exit checks). */
    boolean live(int thisRun) {
        return thisRun == run && (step == Step.RUNNING || step == Step.KILLING);
    }

    /**
     * The run's exit is recorded ({@link RunWatch}; {@code exit} null: the driver lost it): killed under a stop, the
     * next run at once after a restart that is not a failure, else the restart policy decides. {@code at}: the
     * run's end, the FinishedAt of a dead task.
     */
    void runExited(ExitResult exit, Instant at) {
        exitedAt = at;
        if (stop.requested()) {
            record(TaskEvents.killed(now(), ""));
            toDead(stop.fails());
        } else if (restartRequested) {
            restartRequested = false;
            restartWait(host.timers().now(), Duration.ZERO, "");
        } else {
            runEnded(exit != null && exit.successful() ? RestartTracker.Outcome.SUCCESS
                    : RestartTracker.Outcome.FAILURE);
        }
        exitedAt = null;
    }

    /** A run ended (or could not start) with {@code outcome}: the restart policy decides. */
    void runEnded(RestartTracker.Outcome outcome) {
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
     * Re-attaches to the run a previous agent started, from its persisted handle, then runs the hooks' re-attach
     * ({@link TaskStart#reattach}: the templates rendered again and watched). On failure the task is
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
        runStartedAt = RunRecovery.persistedStart(recovered, record.state(), host.timers().now());
        step = Step.RUNNING;
        host.taskHandle(this, recovered);
        if (startedUnrecorded) {
            record.running(runStartedAt);
            record(TaskEvents.started(Nanos.of(runStartedAt)));
        }
        watch.watch(run, runStartedAt, true);
        host.taskChanged(this, true);
        if (step == Step.RUNNING) {
            starter.reattach(run); // its templates are watched from now on, not from its next run
        }
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
        return starter.cancelWaitingPrestart();
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
        watch.cancel();
        stop.cancelTimers();
        starter.cancel();
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
