package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import jnr.ffi.byref.IntByReference;

/**
 * One process started by a {@link ProcessSupervisor}: the leader of its own session and process group
 * (pid = sid = pgid). Thread-safe: every method may be called from any thread and none blocks on the task.
 *
 * <p>The process is reaped by the supervisor's watcher thread ({@code waitpid(pid, WNOHANG)} once its pidfd
 * is readable), so it never stays a zombie. {@link #onExit()} completes on that thread once the process is
 * reaped <em>and</em> every tree kill that was started has been verified, so that after a SIGKILL the whole
 * tree is dead when the exit is reported.
 */
public final class SupervisedProcess {
    private final ProcessSupervisor owner;
    private final int pid;
    private final CompletableFuture<ExitResult> exit = new CompletableFuture<>();
    private final List<OutputPipe> outputs;
    private final LogWriter writer;
    private final String treeMarker;

    // guarded by this
    private int pidfd;
    private long token;
    private ExitResult result;
    private Throwable lost;
    private int pendingKills;
    private CompletableFuture<KillReport> lastKill;
    private final List<ProcTable.Proc> survivors = new java.util.ArrayList<>();

    SupervisedProcess(ProcessSupervisor owner, int pid, int pidfd, List<OutputPipe> outputs, LogWriter writer) {
        this(owner, pid, pidfd, outputs, writer, null);
    }

    /** @param treeMarker the {@code KEY=VALUE} environment entry every process of the tree inherits; null: none */
    SupervisedProcess(ProcessSupervisor owner, int pid, int pidfd, List<OutputPipe> outputs, LogWriter writer,
            String treeMarker) {
        this.treeMarker = treeMarker;
        this.owner = owner;
        this.pid = pid;
        this.pidfd = pidfd;
        this.outputs = outputs;
        this.writer = writer;
    }

    /** Bytes of output dropped because the disk did not keep up (only with log rotation). */
    public long droppedOutputBytes() {
        return outputs.stream().mapToLong(OutputPipe::dropped).sum();
    }

    /** The process id, also its session id and process group id. */
    public int pid() {
        return pid;
    }

    /**
     * Completes with the exit code (or 128 + signal and the signal) once the process has been reaped and any
     * tree kill has been verified; exceptionally if the process was reaped by someone else. The result's
     * message names processes that survived a SIGKILL and counts dropped output ({@link ExitMessage}), so the
     * host's Terminated event reports them. Completes on the
     * watcher thread: dependents must not block.
     */
    public CompletionStage<ExitResult> onExit() {
        return exit.copy();
    }

    /** The exit once known (and reported by {@link #onExit()}), else empty. */
    public Optional<ExitResult> exitNow() {
        return exit.isDone() && !exit.isCompletedExceptionally() ? Optional.of(exit.join()) : Optional.empty();
    }

    /**
     * Sends {@code signal} to the whole process group ({@code kill(-pgid, sig)}); SIGKILL goes through
     * {@link #killTree()} instead, which also reaches descendants that left the group. No-op once the process
     * has been reaped. Returns once the signal is delivered.
     *
     * @throws IllegalStateException when the kernel refuses the signal (EPERM, EINVAL)
     */
    public void signal(int signal) {
        if (signal == 9) {
            killTree();
            return;
        }
        synchronized (this) {
            if (result != null || lost != null) {
                return;
            }
            owner.killGroup(pid, signal);
        }
    }

    /**
     * SIGKILLs the process and its group at once, on the caller's thread ({@code pidfd_send_signal} and
     * {@code kill(-pgid)}: two syscalls, no {@code /proc} read); then, in the background, the rest of its tree
     * (its session, descendants by parent links, and descendants that left the group, found by the environment
     * marker they inherited) and verifies that all of them died. Also called after the process exited, to kill
     * what it left behind in its session or group.
     *
     * @return completes on the watcher thread with what was killed and what survived the verification deadline
     */
    public CompletionStage<KillReport> killTree() {
        return owner.treeKiller().kill(this);
    }

    /** The report of the latest {@link #killTree()}, empty when none was started. */
    public synchronized Optional<CompletionStage<KillReport>> lastKill() {
        return Optional.ofNullable(lastKill).map(CompletableFuture::copy);
    }

    /** The environment entry that marks the task's tree, or null when the process was not started with one. */
    String treeMarker() {
        return treeMarker;
    }

    synchronized boolean reaped() {
        return result != null || lost != null;
    }

    /** Called by the tree killer before it signals anything; the exit waits for {@link #killVerified}. */
    synchronized void killStarted(CompletableFuture<KillReport> report) {
        pendingKills++;
        lastKill = report;
    }

    /** Sends SIGKILL to the process itself through its pidfd (no pid-reuse race) and to its group. */
    synchronized void killSelfAndGroup() {
        if (result == null && lost == null) {
            owner.pidfdKill(pidfd);
        }
        owner.killGroupQuietly(pid);
    }

    void killVerified(KillReport report) {
        boolean complete;
        synchronized (this) {
            survivors.addAll(report.survivors());
            pendingKills--;
            complete = pendingKills == 0 && (result != null || lost != null);
        }
        if (complete) {
            completeExit();
        }
    }

    void register(ExitWatcher watcher) {
        synchronized (this) {
            token = watcher.watch(pidfd, t -> onReadable(watcher));
        }
    }

    /** Watcher thread: the pidfd is readable, the process has exited; reap it. */
    private void onReadable(ExitWatcher watcher) {
        boolean complete;
        synchronized (this) {
            if (result != null || lost != null) {
                return;
            }
            IntByReference status = new IntByReference();
            int rc = owner.waitpid(pid, status);
            if (rc == 0) {
                return; // not yet a zombie (spurious wake-up)
            }
            if (rc == pid) {
                result = WaitStatus.decode(status.intValue());
            } else {
                lost = new IllegalStateException("process " + pid + " was reaped by someone else: "
                        + owner.lastError());
            }
            watcher.unwatch(token, pidfd);
            owner.closeFd(pidfd);
            pidfd = -1;
            complete = pendingKills == 0;
        }
        // what the task wrote before it exited is read now (descendants may keep the pipes open)
        outputs.forEach(OutputPipe::drain);
        if (complete) {
            completeExit();
        }
    }

    /**
     * Completes the exit once the output read so far is on disk: at once when nothing waits for the writer,
     * else after what is queued (the writer runs actions in order).
     */
    private void completeExit() {
        if (writer != null && !outputs.stream().allMatch(OutputPipe::flushed)) {
            writer.submit(this::completeExitNow);
        } else {
            completeExitNow();
        }
    }

    private void completeExitNow() {
        ExitResult r;
        Throwable t;
        List<ProcTable.Proc> left;
        synchronized (this) {
            r = result;
            t = lost;
            left = List.copyOf(survivors);
        }
        if (r != null) {
            String message = ExitMessage.of(left, droppedOutputBytes());
            exit.complete(message.isEmpty() ? r : new ExitResult(r.exitCode(), r.signal(), r.oomKilled(), message));
        } else {
            exit.completeExceptionally(t);
        }
    }

    @Override
    public String toString() {
        return "process " + pid;
    }
}
