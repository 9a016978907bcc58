package io.drover.driver.api;

import java.time.Duration;
import java.time.Instant;

/**
 * The host's clock and timers: the real ones in an agent, a virtual clock in tests. Thread-safe.
 */
public interface Timers {

    /** The current time of this clock. */
    Instant now();

    /**
     * Runs {@code action} once after {@code delay} (zero or negative: as soon as possible). The action runs on
     * the host's timer thread and must not block; hand longer work to another executor.
     *
     * @return cancels the action if it has not started; idempotent
     */
    Cancellable schedule(Duration delay, Runnable action);

    /** A scheduled action that can be cancelled. */
    @FunctionalInterface
    interface Cancellable {
        /** Cancels the action if it has not run yet. Idempotent; any thread. */
        void cancel();
    }
}
