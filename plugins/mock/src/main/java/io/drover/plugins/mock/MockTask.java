package io.drover.plugins.mock;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One run of a mock task: a fake process that exits when its {@code run_for} timer fires, when a terminating
 * signal's {@code kill_after} has passed, or at once on SIGKILL, and writes its configured output meanwhile.
 *
 * <p>Thread-safety: the state is guarded by {@code this}; methods are called from engine threads and timer
 * callbacks from the timer thread. The exit future is completed outside the lock, exactly once. Lock order is
 * task, then timers (timer callbacks run without the timers' lock).
 */
final class MockTask {
    private static final Set<String> TERMINATING = Set.of("SIGINT", "SIGTERM", "SIGQUIT", "SIGHUP");
    private static final int SIGKILL = 9;

    private final String taskId;
    private final MockConfig config;
    private final Timers timers;
    private final long startedAtNanos;
    private final OutputWriter stdout;
    private final OutputWriter stderr;
    private final CompletableFuture<ExitResult> exit = new CompletableFuture<>();
    /** Handed out by {@link #exitStage()}: the same read-only view on every call. */
    private final CompletionStage<ExitResult> exitView = exit.minimalCompletionStage();
    /** Live timers by purpose ("run", "kill", "stdout", "stderr"); guarded by this. */
    private final Map<String, Timers.Cancellable> live = new HashMap<>();
    private ExitResult result;
    private boolean killing;

    MockTask(String taskId, MockConfig config, Timers timers, long startedAtNanos, Path stdoutPath,
            Path stderrPath) {
        this.taskId = taskId;
        this.config = config;
        this.timers = timers;
        this.startedAtNanos = startedAtNanos;
        this.stdout = new OutputWriter(stdoutPath);
        this.stderr = new OutputWriter(stderrPath);
    }

    /** Starts the run: writes the first output and arms the run_for timer. Called once, by the driver. */
    synchronized void begin() {
        startOutput("stdout", stdout, config.stdout());
        startOutput("stderr", stderr, config.stderr());
        live.put("run", timers.schedule(config.runFor(), () -> exit(config.naturalExit())));
    }

    /** The task's exit; the same stage on every call. */
    CompletionStage<ExitResult> exitStage() {
        return exitView;
    }

    /**
     * Delivers a signal given by canonical name. A no-op once the task exited. SIGKILL ends the task at once; a
     * terminating signal ends it {@code kill_after} later (unless {@code ignore_signals}); other signals change
     * nothing.
     *
     * @throws DriverException with {@code signal_error} for signals other than SIGKILL when that is set
     */
    void signal(String signal) throws DriverException {
        int number = Signals.number(signal);
        boolean exitNow = false;
        synchronized (this) {
            if (result != null) {
                return;
            }
            if (number == SIGKILL) {
                exitNow = true;
            } else if (!config.signalError().isEmpty()) {
                throw new DriverException(config.signalError(), false);
            } else if (TERMINATING.contains(signal) && !config.ignoreSignals() && !killing) {
                killing = true;
                if (config.killAfter().isZero()) {
                    exitNow = true;
                } else {
                    live.put("kill", timers.schedule(config.killAfter(), () -> exit(ExitResult.signalled(number))));
                }
            }
        }
        if (exitNow) {
            exit(ExitResult.signalled(number));
        }
    }

    /** Ends a still-running task as SIGKILL would; a no-op once it exited. */
    void kill() {
        exit(ExitResult.signalled(SIGKILL));
    }

    synchronized TaskStatus status() {
        return new TaskStatus(taskId, result == null ? TaskStatus.State.RUNNING : TaskStatus.State.EXITED,
                startedAtNanos, result);
    }

    private void startOutput(String purpose, OutputWriter writer, MockConfig.Output output) {
        if (output.text().isEmpty()) {
            return;
        }
        writer.append(output.text());
        scheduleRepeat(purpose, writer, output, output.repeat());
    }

    private void scheduleRepeat(String purpose, OutputWriter writer, MockConfig.Output output, int remaining) {
        if (remaining <= 0) {
            live.remove(purpose);
            return;
        }
        Duration every = output.every();
        live.put(purpose, timers.schedule(every, () -> {
            synchronized (this) {
                if (result == null) {
                    writer.append(output.text());
                    scheduleRepeat(purpose, writer, output, remaining - 1);
                }
            }
        }));
    }

    private void exit(ExitResult r) {
        synchronized (this) {
            if (result != null) {
                return;
            }
            result = r;
            live.values().forEach(Timers.Cancellable::cancel);
            live.clear();
        }
        exit.complete(r);
    }
}
