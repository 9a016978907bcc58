package io.drover.core.engine;

import io.drover.core.event.GoDuration;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.time.Nanos;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;

/**
 * How a task's run is stopped, the same for every driver: shutdown_delay (Waiting for shutdown delay), then
 * kill_signal once the Killing event is durable, then SIGKILL after min(kill_timeout, max_kill_timeout) — sent on
 * the timer thread at the deadline — then, if the driver never reports the exit, "lost track" a
 * {@link #exitGrace() grace} after SIGKILL.
 *
 * <p>One per task runner, reused by each run's stop. Every method runs on the allocation's serial executor except
 * the SIGKILL at the deadline (timer thread, see {@link #escalateAtDeadline}). Whether the run is still the one
 * being killed is asked of the {@link Target} (run number and step), so a timer of an old run is harmless.
 */
final class KillSequence {
    /** The task runner, as the kill sequence sees it. Serial executor. */
    interface Target {
        /** Whether {@code run} is the current run and it is being killed. */
        boolean killing(int run);

        void record(TaskEvent event);

        /** The driver never reported the end of a SIGKILLed run: release it, the task ends failed. */
        void lostTrack(int run);
    }

    private static final Duration MIN_EXIT_GRACE = Duration.ofSeconds(5);

    private final Task task;
    private final TaskRunnerHost host;
    private final TaskLog log;
    private final Target target;

    private TaskDriver driver;
    private String runId;
    private String reason = "";
    /** The sequence got past its shutdown delay: kill_signal was sent. */
    private boolean signalSent;
    /** SIGKILL at once, no shutdown delay, no kill timeout. */
    private boolean forced;
    private Timers.Cancellable shutdownDelayTimer;
    private Timers.Cancellable escalationTimer;
    private Timers.Cancellable exitGraceTimer;

    KillSequence(Task task, TaskRunnerHost host, TaskLog log, Target target) {
        this.task = task;
        this.host = host;
        this.log = log;
        this.target = target;
    }

    void reason(String reason) {
        this.reason = reason;
    }

    boolean forced() {
        return forced;
    }

    /** From now on the stop is SIGKILL at once (drover run interrupted). */
    void force() {
        forced = true;
    }

    /** kill_signal was sent: the shutdown delay, if any, is over. */
    boolean signalSent() {
        return signalSent;
    }

    /** min(kill_timeout, max_kill_timeout); zero when forced. */
    Duration timeout() {
        if (forced) {
            return Duration.ZERO;
        }
        return task.killTimeout().compareTo(host.maxKillTimeout()) > 0 ? host.maxKillTimeout() : task.killTimeout();
    }

    /** Starts stopping {@code run}: its shutdown delay (unless {@code skipDelay} or forced), then kill_signal. */
    void begin(int run, TaskDriver runDriver, String runTaskId, boolean skipDelay) {
        this.driver = runDriver;
        this.runId = runTaskId;
        Duration delay = task.shutdownDelay();
        if (!delay.isZero() && !skipDelay && !forced) {
            target.record(TaskEvents.waitingShutdownDelay(now(), delay));
            shutdownDelayTimer = host.timers().schedule(delay,
                    () -> host.serial().execute(() -> sendKillSignal(run)));
        } else {
            sendKillSignal(run);
        }
    }

    /** max_runtime ran out during the shutdown delay: the wait is cut short, kill_signal now. */
    void cutDelayShort(int run, String newReason) {
        cancel(shutdownDelayTimer);
        reason = newReason;
        sendKillSignal(run);
    }

    /** A stop under way becomes SIGKILL now. Idempotent. */
    void forceNow(int run, String newReason) {
        if (forced) {
            return;
        }
        forced = true;
        reason = newReason;
        cancel(shutdownDelayTimer);
        cancel(escalationTimer);
        signalSent = false;
        sendKillSignal(run);
    }

    /** The run ended (or the task is dead): no timer of this sequence may fire any more. */
    void cancelTimers() {
        cancel(escalationTimer);
        cancel(shutdownDelayTimer);
        cancel(exitGraceTimer);
    }

    private void sendKillSignal(int run) {
        if (!target.killing(run)) {
            return;
        }
        Duration timeout = timeout();
        signalSent = true;
        Instant killingAt = host.timers().now();
        target.record(TaskEvents.killing(Nanos.of(killingAt), timeout, forced ? Signals.SIGKILL : task.killSignal(),
                reason));
        if (timeout.isZero()) {
            host.afterDurable(() -> escalate(run));
            return;
        }
        // The deadline counts from the Killing event and does not wait for the disk: a stop ends the task
        // within its kill timeout even while the store cannot write.
        TaskDriver runDriver = driver;
        String id = runId;
        Instant deadline = killingAt.plus(timeout);
        // due at the deadline itself, not a timeout after this line: recording the event may take a descheduled
        // engine thread a while on a saturated machine, and that must not move the SIGKILL
        Duration left = Duration.between(host.timers().now(), deadline);
        escalationTimer = host.timers().schedule(left, () -> escalateAtDeadline(run, runDriver, id));
        awaitExitAfterKill(run, left);
        // kill_signal only once the Killing event is durable (one group commit, milliseconds): an agent killed
        // in between must not leave a run that ended by our signal with no record of why (docs/faults.md)
        host.afterDurable(() -> {
            if (!target.killing(run) || !host.timers().now().isBefore(deadline)) {
                return;
            }
            if (!deliver(driver, runId, task.killSignal())) {
                cancel(escalationTimer);
                escalate(run);
            }
        });
    }

    /**
     * How long the exit may take after SIGKILL before the driver is taken to have lost track of the task: the
     * kill timeout again, at least 5 s. SIGKILL must end a task (SPI contract), so only a broken driver
     * (its internal thread died, its exit future is never completed) reaches it.
     */
    private Duration exitGrace() {
        Duration t = timeout();
        return t.compareTo(MIN_EXIT_GRACE) < 0 ? MIN_EXIT_GRACE : t;
    }

    /** Arms the give-up for a run whose SIGKILL goes out {@code sigkillIn} from now. */
    private void awaitExitAfterKill(int run, Duration sigkillIn) {
        cancel(exitGraceTimer);
        Duration grace = exitGrace();
        exitGraceTimer = host.timers().schedule(sigkillIn.plus(grace),
                () -> host.serial().execute(() -> onNoExitAfterKill(run, grace)));
    }

    private void onNoExitAfterKill(int run, Duration grace) {
        if (!target.killing(run)) {
            return;
        }
        cancel(escalationTimer);
        target.record(TaskEvents.driverFailure(now(), "lost track of the task: driver \"" + task.driver()
                + "\" did not report its end within " + GoDuration.format(grace) + " of SIGKILL"));
        target.lostTrack(run);
    }

    /**
     * The kill timeout ran out: SIGKILL, sent <em>on the timer thread</em>, at the deadline, rather than after a
     * hop to the allocation's executor, whose pool may be busy with other allocations' work (100 escalations
     * due in the same millisecond queued behind each other there: docs/performance.md). Safe without the
     * executor: drivers' {@code signal} is thread-safe and non-blocking (SPI contract), and a stale id is
     * harmless — an exited run ignores signals, a destroyed one is not found, a restart has a new id. Only a
     * failure is posted back, to be recorded by the owner.
     */
    private void escalateAtDeadline(int run, TaskDriver runDriver, String id) {
        try {
            runDriver.signal(id, Signals.SIGKILL);
        } catch (TaskNotFoundException e) {
            // already gone: its exit is on the way
        } catch (DriverException | RuntimeException | LinkageError e) {
            log.warn("could not send SIGKILL to task {}: {}", task.name(), TaskHooks.describe(e));
            host.serial().execute(() -> {
                if (target.killing(run)) {
                    target.record(TaskEvents.killed(now(), "failed to kill task: " + TaskHooks.describe(e)));
                }
            });
        }
    }

    private void escalate(int run) {
        if (!target.killing(run)) {
            return;
        }
        deliver(driver, runId, Signals.SIGKILL);
        awaitExitAfterKill(run, Duration.ZERO);
    }

    /**
     * Sends {@code signal} to a run; a run already gone counts as delivered. A failed SIGKILL is recorded (Killed
     * with the error). Serial executor.
     *
     * @return false when the signal could not be delivered (the caller escalates)
     */
    boolean deliver(TaskDriver runDriver, String id, String signal) {
        try {
            runDriver.signal(id, signal);
            return true;
        } catch (TaskNotFoundException e) {
            return true; // already gone: its exit is on the way
        } catch (DriverException | RuntimeException | LinkageError e) {
            log.warn("could not send {} to task {}: {}", signal, task.name(), TaskHooks.describe(e));
            if (Signals.SIGKILL.equals(signal)) {
                target.record(TaskEvents.killed(now(), "failed to kill task: " + TaskHooks.describe(e)));
            }
            return false;
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
