package io.drover.core.driver;

import io.drover.driver.api.DriverHealth;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Asks one driver's {@code health()} off the caller's thread: on the probe's own thread ({@code
 * drover-health-<name>}, created on demand, gone after 30 s idle), at most one question in flight. The caller (an
 * API server thread of {@code GET /v1/plugins}) waits for the answer at most {@code limit}, counted from when the
 * question in flight was asked: a health check that blocks holds the probe's one thread, never a server thread,
 * and every later caller gets "undetected" at once, naming the driver and how long it has been silent, until it
 * answers. Thread-safe; {@link #ask()} never blocks, {@link #answer} blocks at most {@code limit}: a caller asks
 * every driver first, then collects, so several silent drivers cost one limit, not one each.
 */
final class HealthProbe implements AutoCloseable {
    private final LoadedDriver driver;
    private final Duration limit;
    private final ThreadPoolExecutor thread;
    private CompletableFuture<DriverHealth> inFlight; // guarded by this
    private long askedAt; // System.nanoTime of inFlight; guarded by this

    HealthProbe(LoadedDriver driver, Duration limit) {
        this.driver = driver;
        this.limit = limit;
        this.thread = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "drover-health-" + driver.name());
            t.setDaemon(true);
            return t;
        });
        thread.allowCoreThreadTimeOut(true);
    }

    /** A health check asked (or joined, when one is in flight) and when it was asked. */
    record Question(CompletableFuture<DriverHealth> answer, long askedAt) {}

    /** Starts a health check, or joins the one in flight; never blocks. */
    synchronized Question ask() {
        if (inFlight == null || inFlight.isDone()) {
            CompletableFuture<DriverHealth> next = new CompletableFuture<>();
            try {
                thread.execute(() -> next.complete(check()));
            } catch (RejectedExecutionException e) {
                next.complete(DriverHealth.unhealthy("driver \"" + driver.name() + "\" is shut down"));
            }
            inFlight = next;
            askedAt = System.nanoTime();
        }
        return new Question(inFlight, askedAt);
    }

    /**
     * The answer to {@code q}, waited for until {@code limit} after it was asked, else "undetected" naming the
     * driver. Blocks at most the limit.
     */
    DriverHealth answer(Question q) {
        long left = limit.toNanos() - (System.nanoTime() - q.askedAt());
        try {
            return q.answer().get(Math.max(0, left), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            long silent = Duration.ofNanos(System.nanoTime() - q.askedAt()).toSeconds();
            return new DriverHealth(DriverHealth.State.UNDETECTED, "health check of driver \"" + driver.name()
                    + "\" (plugin \"" + driver.pluginId() + "\") did not answer within "
                    + PluginCallLimits.show(limit) + (silent > limit.toSeconds() ? " (silent for " + silent + "s)" : ""));
        } catch (ExecutionException e) {
            return DriverHealth.unhealthy("health check failed: " + Problems.describe(e.getCause()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new DriverHealth(DriverHealth.State.UNDETECTED, "health check interrupted");
        }
    }

    /** Runs on the probe's thread: whatever the plugin does, the answer is a health. */
    private DriverHealth check() {
        try {
            DriverHealth health = DriverFactory.withLoader(driver.classLoader(), driver.driver()::health);
            return health != null ? health : DriverHealth.unhealthy("health check returned nothing");
        } catch (Throwable e) { // an Error of the plugin's too: the probe's thread goes on
            return DriverHealth.unhealthy("health check failed: " + Problems.describe(e));
        }
    }

    /** Interrupts a health check still running and refuses new ones. Idempotent. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
