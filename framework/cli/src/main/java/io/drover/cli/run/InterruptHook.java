package io.drover.cli.run;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The JVM shutting down while {@code drover run} works for another reason than SIGINT or SIGTERM, which
 * {@link InterruptSignals} takes (SIGHUP when the terminal goes, or a signal the JVM kept with {@code -Xrs}): a
 * shutdown hook that runs the registered action (kill every task now: {@code drover run} owns its tasks and leaves
 * none behind) and then keeps the JVM alive until the command has finished — the tasks dead, the status printed,
 * the temporary data dir deleted — or until {@code bound} has passed. {@link #close()} marks the command finished
 * and removes the hook.
 */
final class InterruptHook implements AutoCloseable {
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private final Duration bound;
    private volatile Runnable action = () -> {};

    private InterruptHook(Duration bound) {
        this.bound = bound;
        this.hook = new Thread(this::onShutdown, "drover-interrupt");
    }

    static InterruptHook install(Duration bound) {
        InterruptHook h = new InterruptHook(bound);
        Runtime.getRuntime().addShutdownHook(h.hook);
        return h;
    }

    /** What to do on interrupt; replaces the previous action. */
    void onInterrupt(Runnable action) {
        this.action = action;
    }

    private void onShutdown() {
        try {
            action.run();
            finished.await(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or has run: the JVM exits once it returns, which it now does.
        }
    }
}
