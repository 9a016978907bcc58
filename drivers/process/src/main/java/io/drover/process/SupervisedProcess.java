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
    private final java.nio.file.Path statusFile;
    private volatile long endedAtNanos = -1;
    private volatile boolean endedBeforeAttach; // a previous agent may have sent its SIGKILL: not named outside
    private final boolean child;
    private final long startTime;
    private final long oomKillsAtStart = OutsideKill.oomKills(); // read at spawn or attach

    // guarded by this
    private boolean killSent;
    private int pidfd;
    private long token;
    private ExitResult result;
    private Throwable lost;
    private int pendingKills;
    private CompletableFuture<KillReport> lastKill;
    private final List<ProcTable.Proc> survivors = new java.util.ArrayList<>();
    private final ShimTaskKill shimKill; // the shim's task and the kills its exit verifies; null without the shim
    private int signalsInFlight; // signal() calls between their check and their kill(2), made outside the monitor
    private boolean reapDeferred; // the exit was seen while signals were in flight: reaped when the last one is done
    private ExitWatcher watcher;
    private static final int SIGSTOP = 19;

    /**
     * @param statusFile the shim's status file, null when the process is the task itself
     * @param child whether this JVM is the parent (reaps it with waitpid); false for an attached process
     * @param startTime /proc/PID/stat field 22, -1 when unknown
     * @param treeMarker the {@code KEY=VALUE} environment entry every process of the tree inherits; null: none
     */
    SupervisedProcess(ProcessSupervisor owner, int pid, int pidfd, List<OutputPipe> outputs, LogWriter writer,
            java.nio.file.Path statusFile, boolean child, long startTime, String treeMarker) {
        this.treeMarker = treeMarker;
        this.owner = owner;
        this.pid = pid;
        this.pidfd = pidfd;
        this.outputs = outputs;
        this.writer = writer;
        this.statusFile = statusFile;
        this.child = child;
        this.startTime = startTime;
        this.shimKill = statusFile == null ? null : new ShimTaskKill(owner, pid, startTime);
    }

    /**
     * An attached process that had already ended, with the exit its status file recorded.
     *
     * @param endedAtNanos when it ended, as the file says (unix nanoseconds), -1 when it does not say
     */
    static SupervisedProcess ended(ProcessSupervisor owner, int pid, long startTime, java.nio.file.Path statusFile,
            ExitResult result, long endedAtNanos) {
        SupervisedProcess p = new SupervisedProcess(owner, pid, -1, List.of(), null, statusFile, false, startTime, null);
        p.endedAtNanos = endedAtNanos;
        p.endedBeforeAttach = true;
        synchronized (p) {
            p.result = result;
        }
        p.completeExitNow();
        return p;
    }

    /**
     * When a process that ended before it was attached ended (unix nanoseconds, from the shim's status file); -1
     * for every other process (its exit was seen as it happened) and for a status file of an older shim. Any thread.
     */
    public long endedAtNanos() {
        return endedAtNanos;
    }

    /** The process's start time (clock ticks after boot, /proc/PID/stat field 22): with the pid, its identity. */
    public long startTime() {
        return startTime;
    }

    /** The shim's status file, empty when the task runs without the shim. */
    public Optional<java.nio.file.Path> statusFile() {
        return Optional.ofNullable(statusFile);
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
        ShimKill.Task pinned;
        boolean mayPin;
        int shimPidfd;
        synchronized (this) {
            if (result != null || lost != null) {
                return;
            }
            // The kill(2) below and the pin's /proc reads run outside the monitor: an engine thread that sends the
            // kill_signal is often descheduled in kill(2) (the woken shim takes its core), and while it held the
            // monitor the timer thread's SIGKILL of this task waited for it, 78-186 ms (JFR, issue 18). The
            // process stays unreaped while a signal is in flight (onReadable defers the waitpid), so its pid,
            // group number and pidfds cannot be reused under the kill.
            signalsInFlight++;
            pinned = shimKill == null ? null : shimKill.pinned();
            mayPin = shimKill != null && shimKill.mayPin() && pidfd >= 0;
            shimPidfd = pidfd;
        }
        try {
            if (mayPin) {
                pinned = pinOutside(shimPidfd); // off the deadline: the kill_signal comes a kill timeout before SIGKILL
            }
            if (signal == SIGSTOP && pinned != null) {
                // the one signal the shim cannot take and forward: straight to the task's group, the shim keeps
                // reaping (a stopped shim would not see its task end)
                owner.killGroup(pinned.proc().pid(), signal);
                return;
            }
            owner.killGroup(pid, signal); // under the shim: the shim alone, which forwards it to its task's group
        } finally {
            signalDone();
        }
    }

    /** Pins the shim's task without the monitor (a signal is in flight: the pidfd stays open); keeps the first pin. */
    private ShimKill.Task pinOutside(int shimPidfd) {
        ShimKill.Task[] out = new ShimKill.Task[1];
        ShimKill.Layout layout = ShimKill.pin(owner, pid, shimPidfd, out);
        synchronized (this) {
            return shimKill.keep(out[0], layout, result == null && lost == null);
        }
    }

    private void signalDone() {
        ExitWatcher reaper = null;
        synchronized (this) {
            signalsInFlight--;
            if (signalsInFlight == 0 && reapDeferred) {
                reapDeferred = false;
                reaper = watcher;
            }
        }
        if (reaper != null) {
            ExitWatcher w = reaper;
            w.schedule(System.nanoTime(), () -> onReadable(w)); // the watcher thread reaps it now
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

    /**
     * Sends SIGKILL to the process itself through its pidfd (no pid-reuse race) and, only while it is unreaped and
     * so still owns its number, to its group {@code kill(-pid)}. Once reaped, the number proves nothing: it may lead
     * another task's group already (the corpus run's batch_overload lost tasks to such a kill); what is left of the
     * tree is then the sweep's, which kills only what it proves is the task's ({@link #stillOurs}). Idempotent.
     */
    synchronized void killSelfAndGroup() {
        if (result != null || lost != null) {
            return;
        }
        killSent = true;
        // a child of this JVM is unreaped here (the reap takes this monitor): its number is its group's even if it
        // is a zombie already. An attached process is reaped by its own parent: only a pidfd kill that landed
        // proves the number is still its own (the window to the kill(-pid) is microseconds, see ShimKill).
        if (owner.pidfdKill(pidfd) || child) {
            owner.killGroupQuietly(pid);
        }
    }

    /**
     * Whether the pid number still names this process, so that its session and group numbered like it are its own:
     * true for a child of this JVM until it is reaped, for an attached process while {@code /proc/PID} shows the
     * start time recorded at spawn. Call after a {@code /proc} snapshot: true then means the snapshot's session,
     * group and children of the number are the task's. Any thread.
     */
    synchronized boolean stillOurs() {
        if (result != null || lost != null || pidfd < 0) {
            return false;
        }
        return child || (startTime >= 0 && ProcTable.read(pid).map(p -> p.startTime() == startTime).orElse(false));
    }

    /**
     * Under the shim, while it lives: SIGKILLs its task and the task's group, sparing the shim ({@link ShimKill}),
     * and lets the shim's exit verify the kill: {@code report} completes when the shim is reaped (the shim ends only
     * once nothing is left below it). False when that does not apply (no shim, the shim gone or older, its task not
     * forked yet): then nothing was signalled and the caller kills the group and searches. Called by the tree
     * killer after {@link #killStarted}.
     */
    boolean killBelowShim(CompletableFuture<KillReport> report) {
        ShimKill.Task pinned;
        synchronized (this) {
            // pinned once (at the run's first signal, normally): the SIGKILL at the deadline then costs the timer
            // thread two syscalls and no /proc read
            if (shimKill == null || result != null || lost != null || pidfd < 0 || !shimKill.pin(pidfd)) {
                return false;
            }
            pinned = shimKill.pinned();
            shimKill.verifyByShimExit(report);
            // the two syscalls outside the monitor, in flight (see signal): the thread that sends them may be
            // descheduled there, and the reaper, which needs this monitor to reap the shim, then waited for it
            // (58-107 ms, JFR) instead of reaping the other tasks meanwhile
            signalsInFlight++;
        }
        try {
            ShimKill.kill(owner, pinned); // the task's pidfd stays open: the shim is not reaped while in flight
        } finally {
            signalDone();
        }
        return true;
    }

    /**
     * The shim has not ended {@link TreeKiller#VERIFY_TIMEOUT} after {@link #killBelowShim}: true (and the kill is
     * the caller's again, still counted as started) unless it ended meanwhile.
     */
    synchronized boolean shimDidNotEnd(CompletableFuture<KillReport> report) {
        return shimKill != null && shimKill.shimDidNotEnd(report);
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
            this.watcher = watcher;
            token = watcher.watch(pidfd, t -> onReadable(watcher));
        }
    }

    /** Watcher thread: the pidfd is readable, the process has exited; reap it. */
    private void onReadable(ExitWatcher watcher) {
        boolean complete;
        List<ShimTaskKill.ByShimExit> verified;
        synchronized (this) {
            if (result != null || lost != null) {
                return;
            }
            if (signalsInFlight > 0) {
                // a signal() is between its check and its kill(2): reaping now could free the pid for reuse under
                // it. Stop watching (the pidfd stays readable) and let the last signal hand the reap back.
                reapDeferred = true;
                watcher.unwatch(token, pidfd);
                return;
            }
            if (child) {
                IntByReference status = new IntByReference();
                int rc = owner.waitpid(pid, status);
                if (rc == 0) {
                    return; // not yet a zombie (spurious wake-up)
                }
                if (rc == pid) {
                    result = ShimExits.fromStatusFile(owner, statusFile, WaitStatus.decode(status.intValue()));
                } else {
                    lost = new IllegalStateException("process " + pid + " was reaped by someone else: "
                            + owner.lastError());
                }
            } else {
                endedAttached();
            }
            watcher.unwatch(token, pidfd);
            owner.closeFd(pidfd);
            pidfd = -1;
            verified = shimKill == null ? List.of() : shimKill.shimReaped();
            pendingKills -= verified.size();
            complete = pendingKills == 0;
        }
        ShimTaskKill.verifiedByShimExit(verified, statusFile, pid);
        // what the task wrote before it exited is read now (descendants may keep the pipes open)
        outputs.forEach(OutputPipe::drain);
        if (complete) {
            completeExit();
        }
    }

    /** An attached process ended (guarded by this): only its status file can tell how. */
    private void endedAttached() {
        try {
            result = ShimExits.ofAttached(owner, statusFile, pid, killSent);
        } catch (IllegalStateException e) {
            lost = e;
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
        boolean killAsked;
        synchronized (this) {
            r = result;
            t = lost;
            left = List.copyOf(survivors);
            killAsked = killSent || lastKill != null;
        }
        if (r != null) {
            String outside = r.signal() == 9 && !killAsked && !endedBeforeAttach ? OutsideKill.message(oomKillsAtStart,
                    OutsideKill.oomKills(), child ? "the task's start" : "its re-attach") : "";
            exit.complete(ExitMessage.compose(r, outside, left, droppedOutputBytes()));
        } else {
            exit.completeExceptionally(t);
        }
    }

    @Override
    public String toString() {
        return "process " + pid;
    }
}
