package io.drover.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The task cgroups' deferred work, on one daemon thread per class loader ({@code drover-cgroups}, started at a
 * hand-over, ended after {@value #IDLE_MILLIS} ms without work), so that neither the reaper nor the thread that sends a SIGKILL waits for cgroupfs: the removal of an
 * ended run's cgroups ({@link #submit}) and the raise of a SIGKILLed run's cpu weight ({@link #raiseForKill}).
 *
 * <p>Removals: the cgroups of ended runs are removed off the reaper's path and out of a kill burst: {@link TaskCgroup#finish} hands
 * a run's cgroup here once it has read the OOM counter, and it is removed {@link #DELAY_MILLIS} ms later. Measured (issue 18,
 * escalation row: 100 tasks SIGKILLed within ~10 ms, both cores busy): with each run's rmdirs right at its exit,
 * on the reaper or at once on this thread, the kernel's work for them (a memory cgroup's removal has the kernel
 * offline it) competed with the dying tasks and the reaper, and the exits' "task reaped by its shim -> exit
 * reported" p99 medians were 24.0-30.7 ms against 18.5 ms without any removal; removed 250 ms later, 22.5 ms
 * against 25.5 ms in five alternations, within the noise (docs/performance.md, "Item 2, session 15").
 *
 * <p>A start that makes a cgroup of the same name (a restarted task: {@code <allocId>.<task>}) first calls
 * {@link #removeNow} on the starting thread, so a queued removal can never take the directory the new run is
 * about to join, and the new run never inherits the old run's OOM counter. {@link #flush} removes everything
 * queued at once (a driver's close, tests). Thread-safe: every method may be called from any thread; removals
 * serialize on one lock, held only for their few syscalls; so do raises (a re-run drops one still queued).
 *
 * <p>A removal still queued when the JVM ends without a flush is not done; the next agent's sweep
 * ({@link TaskCgroups#sweep}) takes the empty cgroup.
 */
final class CgroupWorker {
    /** How long after a run's exit its cgroups are removed. */
    static final long DELAY_MILLIS = 250;
    /** How long the thread outlives its last action (longer than {@link #DELAY_MILLIS}: a queued removal keeps it). */
    static final long IDLE_MILLIS = 5000;

    /** Runs an action on the remover's one thread after a delay; actions of equal delay in hand-over order. */
    @FunctionalInterface
    interface Later {
        void run(Runnable action, long delayMillis);
    }

    private static final CgroupWorker INSTANCE = new CgroupWorker();

    private final Object lock = new Object();
    /** Queued removals by memory directory, in hand-over order; guarded by {@link #lock}. */
    private final Map<Path, TaskCgroup> pending = new LinkedHashMap<>();
    /**
     * Queued raises by memory directory: put lock-free by the killing thread (it never waits for a cgroupfs write
     * the worker makes under the lock), taken and written, or dropped, under {@link #lock}.
     */
    private final Map<Path, TaskCgroup> raises = new ConcurrentHashMap<>();
    private final Later later;

    private CgroupWorker() {
        this(threaded("drover-cgroups", IDLE_MILLIS));
    }

    /**
     * Actions on one daemon thread named {@code name}, started when an action is handed over and ended after
     * {@code idleMillis} without one (no thread while idle: each plugin class loader that uses this, raw_exec, exec
     * and java, has its own worker, and a bench or a test suite that makes many loaders would otherwise keep one
     * thread, and its loader, per loader).
     */
    static Later threaded(String name, long idleMillis) {
        ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(() -> {
                raise();
                r.run();
            }, name);
            t.setDaemon(true);
            return t;
        });
        thread.setKeepAliveTime(idleMillis, TimeUnit.MILLISECONDS);
        thread.allowCoreThreadTimeOut(true); // a queued removal keeps the thread (ThreadPoolExecutor's getTask)
        return (action, delay) -> thread.schedule(action, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * As root, nice -10 like the reaper ({@link ThreadNice}): a raise for a kill is due at once, on a machine the
     * tasks saturate. The thread never spawns a process.
     */
    private static void raise() {
        try {
            ThreadNice.raiseCallingThread(Native.get(), ThreadNice.RAISED);
        } catch (LinkageError | RuntimeException e) {
            // no native binding: nice 0
        }
    }

    /** @param later runs the removals (tests pass one they step by hand) */
    CgroupWorker(Later later) {
        this.later = later;
    }

    /** This JVM's. */
    static CgroupWorker instance() {
        return INSTANCE;
    }

    /**
     * Queues the removal of {@code cgroup}'s directories (rmdir, as {@link TaskCgroup#remove}) in
     * {@value #DELAY_MILLIS} ms; returns at once.
     */
    void submit(TaskCgroup cgroup) {
        synchronized (lock) {
            pending.put(cgroup.memory(), cgroup);
        }
        later.run(() -> removeNow(cgroup.memory()), DELAY_MILLIS);
    }

    /**
     * Raises the cpu weight of a run that has just been sent SIGKILL to {@link TaskCgroup#KILLED_CPU_SHARES} (on
     * the worker's thread, at once; returns at once): its processes can no longer run their own code, but they
     * still have to be scheduled to die, and in a cgroup of {@code cpu.shares} 100 (a task's default 100 MHz) on a
     * machine its other tasks saturate, they waited for a core. Measured (escalation row, eight alternations):
     * "SIGKILL landed -> task reaped by its shim" p99 median 39.0 ms without, 15.7 ms with the raise, Terminated
     * p99 median 43.1 and 33.0 ms (written on the killing thread in a first try, the raise made the later kills of
     * the burst land later: hence this thread).
     *
     * <p>A raise still queued when a re-run of the task starts ({@link #removeNow} on the starting thread, before its
     * mkdir at the same paths) is dropped: written later, it would have set the new run's weight. The write is made
     * under the lock {@link #removeNow} takes, so it lands before the re-run's directories exist or not at all.
     */
    void raiseForKill(TaskCgroup cgroup) {
        if (cgroup.cpu() != null) {
            raises.put(cgroup.memory(), cgroup);
            later.run(() -> raiseQueued(cgroup.memory()), 0);
        }
    }

    private void raiseQueued(Path memory) {
        synchronized (lock) {
            TaskCgroup queued = raises.remove(memory);
            if (queued != null) {
                queued.raiseForKill();
            }
        }
    }

    /**
     * Removes at once, on the calling thread, the queued cgroup whose memory directory is {@code memory}, if one is
     * queued, and drops a raise queued for it (the run has ended); otherwise does nothing. Idempotent.
     */
    void removeNow(Path memory) {
        synchronized (lock) {
            raises.remove(memory);
            TaskCgroup queued = pending.remove(memory);
            if (queued != null) {
                queued.remove();
            }
        }
    }

    /** Removes, on the remover's thread and without waiting for their delay, every cgroup queued so far; completes then. */
    CompletableFuture<Void> flush() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        later.run(() -> {
            List<Path> queued;
            synchronized (lock) {
                queued = new ArrayList<>(pending.keySet());
            }
            queued.forEach(this::removeNow);
            done.complete(null);
        }, 0);
        return done;
    }
}
