package io.drover.driver.tck;

import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** The wall clock as {@link Timers}, for driver tests that run real processes (the TCK's default). Thread-safe. */
public final class WallTimers implements Timers {
    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public Cancellable schedule(Duration delay, Runnable action) {
        CompletableFuture<Void> f = CompletableFuture.runAsync(action,
                CompletableFuture.delayedExecutor(Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS));
        return () -> f.cancel(false);
    }
}
