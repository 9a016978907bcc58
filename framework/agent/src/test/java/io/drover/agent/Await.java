package io.drover.agent;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds, for at most a bounded time; fails the test with a message otherwise. */
final class Await {
    private Await() {}

    static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(20), condition);
    }

    static void until(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + limit + " waiting for " + what);
            }
            LockSupport.parkNanos(2_000_000); // poll every 2 ms
        }
    }
}
