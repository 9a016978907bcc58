package io.drover.core.time;

import io.drover.driver.api.Timers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Wall-clock time and one daemon timer thread for every timer of the agent (kill timeouts, restart delays,
 * max_runtime, mock run_for): timers cost a heap entry each, not a thread. Actions must not block; they hand
 * work to the engine's executor.
 */
public final class RealTimers implements Timers, AutoCloseable {
    private final Clock clock = Clock.systemUTC();
    private final ScheduledThreadPoolExecutor timer;
    private volatile Thread renicer; // the renice raisePriority started (null when none): close() ends it

    public RealTimers() {
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "drover-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Raises the timer thread to nice {@value RaisedPriority#NICE} where the process may ({@link RaisedPriority}):
     * the agent's kill deadlines then hold on a machine its tasks saturate. Returns at once; call it once (the
     * renice it starts is the one {@link #close()} ends).
     */
    public void raisePriority() {
        timer.execute(() -> RaisedPriority.raiseCallingThread().ifPresent(t -> renicer = t));
    }

    /** The renice {@link #raisePriority()} started, once the timer thread ran it; null before, or when none (tests). */
    Thread reniceThread() {
        return renicer;
    }

    @Override
    public Instant now() {
        return clock.instant();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable action) {
        ScheduledFuture<?> f = timer.schedule(action, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS);
        return () -> f.cancel(false);
    }

    /**
     * Stops the timer thread (pending timers are dropped) and ends a renice still under way, so that no child
     * process of this object outlives the call: a renice on a loaded machine can take longer than a short-lived
     * agent. Bounded: about 1 s for a timer action still running, 2 s for the renice to be killed and reaped (both
     * are milliseconds in practice). Idempotent; any thread but the timer's own.
     */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            // a raise still running on the timer thread has published its renice thread once the timer ended
            timer.awaitTermination(1, TimeUnit.SECONDS);
            Thread r = renicer;
            if (r != null) {
                r.interrupt(); // kills the renice process and waits for its reaping
                r.join(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
