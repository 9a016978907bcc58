package io.drover.process;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Removes the cgroups of ended runs off the reaper's path: {@link TaskCgroup#finish} hands a run's cgroup here
 * once it has read the OOM counter, so the run's exit is reported without waiting for the rmdirs (measured:
 * with the removals on the reaper the escalation row's "SIGKILL landed -> exit reported" p50 was 5-10 ms higher,
 * docs/performance.md "Session 15"). One daemon thread per JVM ({@code drover-cgroup-remover}, started at the
 * first hand-over), removals in hand-over order.
 *
 * <p>A start that makes a cgroup of the same name (a restarted task: {@code <allocId>.<task>}) first calls
 * {@link #removeNow} on the starting thread, so a queued removal can never take the directory the new run is
 * about to join, and the new run never inherits the old run's OOM counter. Thread-safe: every method may be called
 * from any thread; {@link #removeNow} and the remover thread serialize on one lock, held only for a removal's
 * few syscalls.
 *
 * <p>A removal still queued when the JVM ends is not done; the next agent's sweep ({@link TaskCgroups#sweep})
 * takes the empty cgroup.
 */
final class CgroupRemover {
    private static final CgroupRemover INSTANCE = new CgroupRemover();

    private final Object lock = new Object();
    /** Queued removals by memory directory; guarded by {@link #lock}. */
    private final Map<Path, TaskCgroup> pending = new HashMap<>();
    private final Executor thread;

    private CgroupRemover() {
        this(new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "drover-cgroup-remover");
            t.setDaemon(true);
            return t;
        }));
    }

    /** @param thread runs the queued removals one at a time, in order (tests pass one they step by hand) */
    CgroupRemover(Executor thread) {
        this.thread = thread;
    }

    /** This JVM's. */
    static CgroupRemover instance() {
        return INSTANCE;
    }

    /** Queues the removal of {@code cgroup}'s directories (rmdir, as {@link TaskCgroup#remove}); returns at once. */
    void submit(TaskCgroup cgroup) {
        synchronized (lock) {
            pending.put(cgroup.memory(), cgroup);
        }
        thread.execute(() -> removeNow(cgroup.memory()));
    }

    /**
     * Removes at once, on the calling thread, the queued cgroup whose memory directory is {@code memory}, if one is
     * queued; otherwise does nothing. Idempotent.
     */
    void removeNow(Path memory) {
        synchronized (lock) {
            TaskCgroup queued = pending.remove(memory);
            if (queued != null) {
                queued.remove();
            }
        }
    }

    /** Completes once every removal handed over before this call is done (tests and leak checks await it). */
    CompletableFuture<Void> flush() {
        return CompletableFuture.runAsync(() -> { }, thread);
    }
}
