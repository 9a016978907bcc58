package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

/**
 * Waiting on another process (a child agent, its tasks, the kernel): there is no event to await across a process
 * boundary, so the condition is read every 20 ms until it holds or the deadline fails the test with the last value.
 */
final class Poll {
    private static final long EVERY_NANOS = 20_000_000;

    private Poll() {}

    /** Reads a value from outside the test JVM; may throw (an I/O error fails the test). */
    interface Probe<T> {
        T get() throws Exception;
    }

    /** The first value of {@code probe} that {@code done} accepts; fails after {@code timeout} naming the last. */
    static <T> T until(String what, Duration timeout, Probe<T> probe, Predicate<T> done) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value)) {
                return value;
            }
            assertThat(System.nanoTime()).as(what + " within " + timeout + "; last: " + value).isLessThan(deadline);
            LockSupport.parkNanos(EVERY_NANOS);
        }
    }

    /** Until {@code condition} is true; fails after {@code timeout}. */
    static void until(String what, Duration timeout, Probe<Boolean> condition) throws Exception {
        until(what, timeout, condition, Boolean::booleanValue);
    }
}
