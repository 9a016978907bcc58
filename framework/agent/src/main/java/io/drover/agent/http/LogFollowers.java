package io.drover.agent.http;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Streams followed logs ({@code follow=true}) with no head-of-line blocking between followers. One
 * {@code drover-log-follow-timer} thread pokes each follower every {@value #POLL_MILLIS} ms and never blocks;
 * each poke runs a tick of at most {@value #TICK_BUDGET} bytes on a {@code drover-log-follow-N} worker, created
 * on demand (at most one per follower at a time, so at most {@value #MAX_FOLLOWERS}) and gone after
 * {@value #WORKER_IDLE_SECONDS} s idle. A client that stops reading without disconnecting blocks only its own
 * worker once its socket buffer is full, and is closed once a write has been blocked for the stall limit
 * (default {@value #STALL_SECONDS} s). At most {@value #MAX_FOLLOWERS} follows at once (more get 429). A
 * follow ends when the task is dead and its file drained, when a write fails (client gone), on a stall, or when
 * the agent stops. Plain followers of an idle task cannot notice a silent client until the task writes or ends;
 * framed ones send a {@code {}} heartbeat after {@value #HEARTBEAT_MILLIS} ms idle, which does. Thread-safe.
 */
final class LogFollowers implements AutoCloseable {
    static final int MAX_FOLLOWERS = 64;
    static final long POLL_MILLIS = 100;
    static final long TICK_BUDGET = 256 * 1024;
    static final long HEARTBEAT_MILLIS = 10_000;
    static final long STALL_SECONDS = 30;
    static final long WORKER_IDLE_SECONDS = 10;
    static final long CLOSE_MILLIS = 1000;

    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor workers;
    private final long stallNanos;
    private final Semaphore slots = new Semaphore(MAX_FOLLOWERS);
    private final Set<LogFollower> live = ConcurrentHashMap.newKeySet();

    LogFollowers() {
        this(Duration.ofSeconds(STALL_SECONDS));
    }

    /** @param stall how long a write to a follower may stay blocked before the follow is closed */
    LogFollowers(Duration stall) {
        this.stallNanos = stall.toNanos();
        timer = new ScheduledThreadPoolExecutor(1, daemon(n -> "drover-log-follow-timer"));
        timer.setRemoveOnCancelPolicy(true);
        workers = new ThreadPoolExecutor(0, MAX_FOLLOWERS, WORKER_IDLE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemon(n -> "drover-log-follow-" + n));
    }

    private static ThreadFactory daemon(java.util.function.IntFunction<String> name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name.apply(n.incrementAndGet()));
            t.setDaemon(true);
            return t;
        };
    }

    /** Takes a follower slot; false when all {@value #MAX_FOLLOWERS} are in use. */
    boolean reserve() {
        return slots.tryAcquire();
    }

    void release() {
        slots.release();
    }

    /**
     * Takes over a detached exchange whose headers are sent, using a slot from {@link #reserve()}. Returns at once.
     *
     * @param taskDead true once the task is dead for good (or its allocation is gone)
     */
    void follow(AutoCloseable exchange, LogStream stream, BooleanSupplier taskDead, String what) {
        LogFollower f = new LogFollower(this, exchange, stream, taskDead, what, workers, stallNanos);
        live.add(f);
        try {
            f.pokedBy(timer.scheduleWithFixedDelay(f::poke, 0, POLL_MILLIS, TimeUnit.MILLISECONDS));
        } catch (RuntimeException e) { // shut down meanwhile
            f.end();
        }
    }

    /** A follower's end: frees its slot. Called once per follower. */
    void ended(LogFollower f) {
        if (live.remove(f)) {
            slots.release();
        }
    }

    /** Follows streaming now. */
    int count() {
        return live.size();
    }

    /**
     * Ends every follow (their clients see the stream end) and stops the threads. Returns within about a second:
     * each follow ends on a short-lived thread of its own, and one still blocked after a second (the last write to a
     * client that stopped reading) is interrupted, which closes its connection.
     */
    @Override
    public void close() {
        timer.shutdownNow();
        workers.shutdownNow(); // interrupts blocked writes: those follows end on their own worker
        ExecutorService enders = Executors.newCachedThreadPool(daemon(n -> "drover-log-follow-close-" + n));
        live.forEach(f -> enders.execute(f::end));
        enders.shutdown();
        try {
            if (!enders.awaitTermination(CLOSE_MILLIS, TimeUnit.MILLISECONDS)) {
                enders.shutdownNow();
            }
        } catch (InterruptedException e) {
            enders.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
