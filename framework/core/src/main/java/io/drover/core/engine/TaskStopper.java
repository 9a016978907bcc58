package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.time.Duration;

/**
 * What a stop means in each step of a {@link TaskRunner}: a task that never started is dead at once, one waiting
 * on a hook's work or a restart is cancelled, a starting one is killed once its start completes (or abandoned
 * after its kill timeout), a running one goes through its {@link KillSequence}. Also max_runtime (a stop the task
 * asks for itself) and user signals. Holds whether a stop was requested and why.
 *
 * <p>Serial executor of the allocation only (the max_runtime timer hops onto it through
 * {@link TaskRunnerHost#urgent()}). {@link #kill} and {@link #killNow} are idempotent; {@link #signal} is not (each
 * call delivers the signal once more).
 */
final class TaskStopper {
    private final TaskRunner runner;
    private final TaskRunnerHost host;
    private final TaskDriverCalls calls;
    private final KillSequence killer;

    private boolean requested;
    private boolean maxRuntimeExceeded;
    /** The stop fails the task (a template that can no longer render). */
    private boolean failing;
    private Timers.Cancellable abandonStartTimer;

    TaskStopper(TaskRunner runner, Task task, TaskRunnerHost host, TaskLog log, TaskDriverCalls calls) {
        this.runner = runner;
        this.host = host;
        this.calls = calls;
        this.killer = new KillSequence(task, host, log, new KillSequence.Target() {
            @Override
            public boolean killing(int r) {
                return r == runner.currentRun() && runner.step() == TaskRunner.Step.KILLING;
            }

            @Override
            public void record(TaskEvent event) {
                runner.record(event);
            }

            @Override
            public void lostTrack(int r) {
                runner.lostTrack();
            }
        });
    }

    /** Whether a stop of the task was asked for (by the allocation, or by max_runtime). */
    boolean requested() {
        return requested;
    }

    /** Whether the stop came from max_runtime: the task then ends failed. */
    boolean maxRuntimeExceeded() {
        return maxRuntimeExceeded;
    }

    /** Whether the task ends failed when the stop's run exits (max_runtime, a template that failed). */
    boolean fails() {
        return maxRuntimeExceeded || failing;
    }

    /** Stops the task because of {@code reason}, and it ends failed (Nomad's "Template failed: ..."). */
    void killFailing(String reason) {
        TaskRunner.Step step = runner.step();
        if (step == TaskRunner.Step.RUNNING || step == TaskRunner.Step.STARTING) {
            failing = true;
        }
        kill(reason);
    }

    /**
     * Kills the current run so that the task starts again, not as a failure and not counted by the restart policy
     * (Nomad's restart with failure = false): the run goes through its kill sequence; its exit leads to a restart.
     * A stop that comes meanwhile wins. Only for a running task.
     */
    void restartKill() {
        if (runner.step() != TaskRunner.Step.RUNNING) {
            return;
        }
        runner.enterKilling(true);
        killer.begin(runner.currentRun(), calls.driver(), calls.runTaskId(), false);
    }

    /**
     * Stops the task: kill_signal, then SIGKILL after the kill timeout. A task that never started just
     * becomes dead.
     *
     * @param reason shown in the Killing event ("Killing task: reason"), empty for the usual message
     */
    void kill(String reason) {
        switch (runner.step()) {
            case NOT_STARTED -> runner.toDead(false);
            case STARTING -> {
                if (runner.cancelWaitingPrestart()) {
                    // waiting on a hook's work (a download): nothing runs yet, the work is cancelled
                    requested = true;
                    runner.record(TaskEvents.killed(now(), ""));
                    runner.toDead(false);
                    return;
                }
                startingKill(reason);
            }
            case RESTART_WAIT -> {
                runner.cancelRestartWait();
                runner.record(TaskEvents.killed(now(), ""));
                runner.toDead(false);
            }
            case RUNNING -> {
                requested = true;
                killer.reason(reason);
                runner.enterKilling(true);
                begin();
            }
            case KILLING -> {
                // already on its way out; a restart's kill becomes a stop: its exit ends the task
                requested = true;
            }
            case DEAD -> {
                // nothing left
            }
        }
    }

    private void startingKill(String reason) {
        if (!requested) {
            // a driver whose start hangs must not hold the stop forever: after the kill timeout the
            // run is abandoned (a start that completes later is discarded: SIGKILL and destroy)
            int thisRun = runner.currentRun();
            Duration timeout = killer.timeout();
            abandonStartTimer = host.timers().schedule(timeout,
                    () -> host.serial().execute(() -> runner.giveUpStart(thisRun,
                            "the kill timeout (" + GoDuration.format(timeout) + ") of a stop")));
        }
        requested = true;
        killer.reason(reason);
    }

    /**
     * Kills the task at once: SIGKILL of its whole tree through the driver (no shutdown_delay, no kill_timeout),
     * with the usual events (Killing with signal SIGKILL, then Terminated and Killed once the driver reports the
     * exit). A task already being killed is escalated now. A task that never started just becomes dead.
     *
     * @param reason shown in the Killing event
     */
    void killNow(String reason) {
        switch (runner.step()) {
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
            case KILLING -> killer.forceNow(runner.currentRun(), reason);
            case DEAD -> {
                // nothing left
            }
        }
    }

    /** The current run is being killed (its step is KILLING): the kill sequence starts. */
    void begin() {
        runner.enterKilling(false);
        killer.begin(runner.currentRun(), calls.driver(), calls.runTaskId(), maxRuntimeExceeded);
    }

    /** max_runtime of run {@code thisRun} passed ({@code limit}): the task is killed, and fails. */
    void onMaxRuntime(int thisRun, Duration limit) {
        TaskRunner.Step step = runner.step();
        boolean inShutdownDelay = step == TaskRunner.Step.KILLING && !killer.signalSent();
        if (thisRun != runner.currentRun() || (step != TaskRunner.Step.RUNNING && !inShutdownDelay)) {
            return;
        }
        maxRuntimeExceeded = true;
        Duration actual = Duration.between(runner.runStartedAt(), host.timers().now());
        runner.record(TaskEvents.maxRuntimeExceeded(now(), limit, actual));
        String reason = "exceeded max_runtime of " + GoDuration.format(limit);
        if (inShutdownDelay) {
            // already being stopped, but still waiting out its shutdown_delay: the limit cuts the wait short
            killer.cutDelayShort(thisRun, reason);
            return;
        }
        kill(reason);
    }

    /** Delivers a signal on the user's behalf (alloc signal), to a running or stopping task. */
    void signal(String signal, String reason) {
        TaskRunner.Step step = runner.step();
        if (step != TaskRunner.Step.RUNNING && step != TaskRunner.Step.KILLING) {
            return;
        }
        signal(TaskEvents.signaling(now(), signal, reason), signal);
    }

    /** Records {@code event} and delivers {@code signal} to a running or stopping task. */
    void signal(TaskEvent event, String signal) {
        TaskRunner.Step step = runner.step();
        if (step != TaskRunner.Step.RUNNING && step != TaskRunner.Step.KILLING) {
            return;
        }
        runner.record(event);
        killer.deliver(calls.driver(), calls.runTaskId(), signal);
    }

    /** The run started or ended: a stop that abandons a hanging start is no longer needed. */
    void cancelAbandon() {
        cancel(abandonStartTimer);
    }

    /** The run ended: the kill sequence's timers (SIGKILL deadline, exit grace) are void. */
    void cancelKillTimers() {
        killer.cancelTimers();
    }

    /** The task is dead: every timer of the stop is void. */
    void cancelTimers() {
        cancel(abandonStartTimer);
        killer.cancelTimers();
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
