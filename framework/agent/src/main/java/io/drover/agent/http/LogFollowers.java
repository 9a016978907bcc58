package io.drover.agent.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streams followed logs ({@code follow=true}) without holding a thread per follower: each follower is a
 * tick re-scheduled every {@value #POLL_MILLIS} ms on {@value #THREADS} {@code drover-log-follow-N} threads;
 * a tick copies at most {@value #TICK_BUDGET} bytes. At most {@value #MAX_FOLLOWERS} follows at once (more
 * get 429). A follow ends when the task is dead and its file drained, when a write fails (client gone), or
 * when the agent stops. Plain followers of an idle task cannot notice a silent client until the task writes
 * or ends; framed ones send a {@code {}} heartbeat after {@value #HEARTBEAT_MILLIS} ms idle, which does.
 * A client that stops reading without disconnecting can block a tick thread once its socket buffer is full.
 */
final class LogFollowers implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogFollowers.class);
    static final int MAX_FOLLOWERS = 64;
    static final int THREADS = 2;
    static final long POLL_MILLIS = 100;
    static final long TICK_BUDGET = 256 * 1024;
    static final long HEARTBEAT_MILLIS = 10_000;

    private final ScheduledThreadPoolExecutor ticks;
    private final Semaphore slots = new Semaphore(MAX_FOLLOWERS);
    private final Set<Follower> live = ConcurrentHashMap.newKeySet();

    LogFollowers() {
        AtomicInteger n = new AtomicInteger();
        ticks = new ScheduledThreadPoolExecutor(THREADS, r -> {
            Thread t = new Thread(r, "drover-log-follow-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        ticks.setRemoveOnCancelPolicy(true);
    }

    /** Takes a follower slot; false when all {@value #MAX_FOLLOWERS} are in use. */
    boolean reserve() {
        return slots.tryAcquire();
    }

    void release() {
        slots.release();
    }

    /**
     * Takes over a detached exchange whose headers are sent, using a slot from {@link #reserve()}.
     *
     * @param taskDead true once the task is dead for good (or its allocation is gone)
     */
    void follow(HttpExchange exchange, LogStream stream, BooleanSupplier taskDead, String what) {
        Follower f = new Follower(exchange, stream, taskDead, what);
        live.add(f);
        try {
            ticks.execute(f::tick);
        } catch (RuntimeException e) { // shut down meanwhile
            f.end();
        }
    }

    /** Follows streaming now. */
    int count() {
        return live.size();
    }

    /** Ends every follow (their clients see the stream end) and stops the tick threads. */
    @Override
    public void close() {
        ticks.shutdownNow();
        live.forEach(Follower::end);
    }

    private final class Follower {
        private final HttpExchange exchange;
        private final LogStream stream;
        private final BooleanSupplier taskDead;
        private final String what;
        private long lastWrite = System.nanoTime();
        private boolean ended;

        Follower(HttpExchange exchange, LogStream stream, BooleanSupplier taskDead, String what) {
            this.exchange = exchange;
            this.stream = stream;
            this.taskDead = taskDead;
            this.what = what;
        }

        /** One step on a tick thread; ticks of one follower never overlap (each schedules the next). */
        synchronized void tick() {
            if (ended) {
                return;
            }
            try {
                boolean deadBefore = taskDead.getAsBoolean(); // before the read, so no last bytes are missed
                long copied = stream.pump(TICK_BUDGET);
                if (copied > 0) {
                    lastWrite = System.nanoTime();
                } else if (deadBefore) {
                    end();
                    return;
                } else if (System.nanoTime() - lastWrite > TimeUnit.MILLISECONDS.toNanos(HEARTBEAT_MILLIS)
                        && stream.heartbeat()) {
                    lastWrite = System.nanoTime();
                }
                ticks.schedule(this::tick, copied >= TICK_BUDGET ? 0 : POLL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (IOException e) {
                LOG.debug("log follow of {} ended: {}", what, e.toString());
                end();
            } catch (RuntimeException e) {
                if (!ticks.isShutdown()) {
                    LOG.warn("log follow of {} failed", what, e);
                }
                end();
            }
        }

        synchronized void end() {
            if (ended) {
                return;
            }
            ended = true;
            live.remove(this);
            slots.release();
            try {
                stream.close();
            } catch (IOException | RuntimeException e) {
                // the client is gone; nothing left to tell it
            }
            exchange.close();
        }
    }
}
