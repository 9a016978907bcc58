package io.drover.agent.http;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One follow ({@code follow=true}): a {@link LogStream} copied to a detached exchange in ticks. The timer thread
 * only {@linkplain #poke pokes} (never blocks, never writes); each tick runs on a worker thread, where a write to a
 * client that stopped reading may block — that holds this follower's own worker, never another follower. A tick
 * blocked longer than the stall limit is ended by interrupting its worker: the blocked write fails (an
 * {@code InterruptedIOException}; the stream aborts the exchange, which closes the connection) and the worker ends
 * the follow. Ticks of one
 * follower never overlap.
 */
final class LogFollower {
    private static final Logger LOG = LoggerFactory.getLogger(LogFollower.class);

    private final LogFollowers owner;
    private final AutoCloseable exchange;
    private final LogStream stream;
    private final BooleanSupplier taskDead;
    private final String what;
    private final ExecutorService workers;
    private final long stallNanos;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final Object lock = new Object();
    private boolean running; // guarded by lock: a tick is submitted or runs
    private Thread worker; // guarded by lock: the thread running the tick, null between ticks
    private long tickStarted; // guarded by lock
    private boolean stalled; // guarded by lock
    private long lastWrite = System.nanoTime(); // tick only
    private volatile ScheduledFuture<?> pokes;

    LogFollower(LogFollowers owner, AutoCloseable exchange, LogStream stream, BooleanSupplier taskDead, String what,
            ExecutorService workers, long stallNanos) {
        this.owner = owner;
        this.exchange = exchange;
        this.stream = stream;
        this.taskDead = taskDead;
        this.what = what;
        this.workers = workers;
        this.stallNanos = stallNanos;
    }

    void pokedBy(ScheduledFuture<?> pokes) {
        this.pokes = pokes;
        if (ended.get()) {
            pokes.cancel(false);
        }
    }

    /**
     * Timer thread, every poll interval; never blocks. Starts a tick unless one is running; a tick blocked past the
     * stall limit has its worker interrupted (the worker then ends the follow).
     */
    void poke() {
        if (ended.get()) {
            return;
        }
        synchronized (lock) {
            if (running) {
                if (!stalled && worker != null && System.nanoTime() - tickStarted > stallNanos) {
                    stalled = true;
                    LOG.info("log follow of {} closed: the client took nothing for {} ms", what,
                            TimeUnit.NANOSECONDS.toMillis(stallNanos));
                    worker.interrupt();
                }
                return;
            }
            running = true;
        }
        submit();
    }

    private void submit() {
        try {
            workers.execute(this::tick);
        } catch (RejectedExecutionException e) { // every worker busy (or shut down): the next poke retries
            synchronized (lock) {
                running = false;
            }
            if (workers.isShutdown()) {
                end();
            }
        }
    }

    /** Worker thread: one step, at most {@link LogFollowers#TICK_BUDGET} bytes. */
    private void tick() {
        synchronized (lock) {
            worker = Thread.currentThread();
            tickStarted = System.nanoTime();
        }
        boolean again = false;
        try {
            if (!ended.get()) {
                again = step();
            }
        } catch (IOException e) {
            LOG.debug("log follow of {} ended: {}", what, e.toString());
            end();
        } catch (RuntimeException e) {
            if (!workers.isShutdown()) {
                LOG.warn("log follow of {} failed", what, e);
            }
            end();
        } finally {
            synchronized (lock) {
                worker = null;
                Thread.interrupted(); // an interrupt meant for this tick stays with it
                running = again && !stalled && !ended.get();
            }
        }
        if (again && !ended.get()) {
            submit(); // a full budget: more is waiting, go on without waiting for the timer
        }
    }

    /** @return whether a full budget was copied (more may be waiting) */
    private boolean step() throws IOException {
        boolean deadBefore = taskDead.getAsBoolean(); // before the read, so no last bytes are missed
        long copied = stream.pump(LogFollowers.TICK_BUDGET);
        if (copied > 0) {
            lastWrite = System.nanoTime();
        } else if (deadBefore) {
            end();
            return false;
        } else if (System.nanoTime() - lastWrite > TimeUnit.MILLISECONDS.toNanos(LogFollowers.HEARTBEAT_MILLIS)
                && stream.heartbeat()) {
            lastWrite = System.nanoTime();
        }
        return copied >= LogFollowers.TICK_BUDGET;
    }

    /**
     * Ends the follow: its client sees the stream end (or the connection closed). Idempotent, any thread; called
     * by a worker (the stream ended, a write failed) or at agent shutdown, after the workers were interrupted.
     */
    void end() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        ScheduledFuture<?> p = pokes;
        if (p != null) {
            p.cancel(false);
        }
        owner.ended(this);
        try {
            stream.close();
        } catch (IOException | RuntimeException e) {
            // the client is gone; nothing left to tell it
        }
        try {
            exchange.close();
        } catch (Exception e) {
            // the connection is gone
        }
    }
}
