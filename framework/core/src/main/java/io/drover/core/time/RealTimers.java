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
     * the agent's kill deadlines then hold on a machine its tasks saturate. Returns at once; idempotent enough (a
     * second call renices again).
     */
    public void raisePriority() {
        timer.execute(RaisedPriority::raiseCallingThread);
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

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
