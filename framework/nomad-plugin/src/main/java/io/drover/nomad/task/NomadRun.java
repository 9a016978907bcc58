package io.drover.nomad.task;

import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.Timers;
import io.drover.nomad.wire.MaxRuntime;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * One task run Nomad started (or recovered) through this plugin. The exit completes once; the max_runtime and
 * stop timers are cancelled when it does. Guarded by its own monitor; any thread.
 */
final class NomadRun {
    final String id;
    final String allocId;
    final String taskName;
    final io.drover.nomad.proto.driver.TaskConfig nomadConfig;
    final TaskHandle handle;
    final MaxRuntime maxRuntime;
    final Instant startedAt;
    /** The run's end as Nomad is told it: the Drover exit, and an error text when max_runtime ended it. */
    final CompletableFuture<Outcome> outcome = new CompletableFuture<>();

    private boolean exceeded;
    private Timers.Cancellable deadline;
    private Timers.Cancellable kill;
    private Instant completedAt;

    record Outcome(ExitResult exit, String err, Instant completedAt) {}

    NomadRun(io.drover.nomad.proto.driver.TaskConfig nomadConfig, TaskHandle handle, MaxRuntime maxRuntime) {
        this.id = nomadConfig.getId();
        this.allocId = nomadConfig.getAllocId();
        this.taskName = nomadConfig.getName();
        this.nomadConfig = nomadConfig;
        this.handle = handle;
        this.maxRuntime = maxRuntime;
        this.startedAt = Instant.ofEpochSecond(0, handle.startedAtNanos());
    }

    synchronized void deadline(Timers.Cancellable c) {
        deadline = c;
    }

    /** Arms the SIGKILL of a stop or of max_runtime; replaces (cancels) an earlier one that is later. */
    synchronized void kill(Timers.Cancellable c) {
        if (kill != null) {
            kill.cancel();
        }
        kill = c;
    }

    /** Marks the run as ended by max_runtime; false when it had already exited or was marked. */
    synchronized boolean markExceeded() {
        if (exceeded || outcome.isDone()) {
            return false;
        }
        exceeded = true;
        return true;
    }

    synchronized boolean exceeded() {
        return exceeded;
    }

    /** Records the exit (once) and cancels the timers. */
    void exited(ExitResult exit, Instant at) {
        String err;
        synchronized (this) {
            if (deadline != null) {
                deadline.cancel();
            }
            if (kill != null) {
                kill.cancel();
            }
            completedAt = at;
            err = exceeded ? maxRuntime.exceededMessage() : "";
        }
        outcome.complete(new Outcome(exit, err, at));
    }

    synchronized Instant completedAt() {
        return completedAt;
    }
}
