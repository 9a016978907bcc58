package io.drover.core.driver;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs one call into a plugin's code on a thread of its own, with the plugin's class loader as context loader,
 * and waits for it at most a limit: a plugin that blocks in {@code Plugin.start()} or {@code init} costs the
 * loading thread that limit, not the agent's start. On time-out the thread is interrupted and left behind (a
 * daemon: a plugin that ignores interrupts keeps it until the JVM exits). Blocking; any thread.
 */
final class BoundedCall {
    private BoundedCall() {}

    /** The call did not return within its limit; the message says what and how long. */
    static final class Timeout extends Exception {
        Timeout(String message) {
            super(message, null, false, false);
        }
    }

    /** The call threw; {@link #getCause()} is what (any Throwable, Errors included). */
    static final class Failed extends Exception {
        Failed(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    /**
     * Runs {@code action} on a new daemon thread named {@code thread} and returns its result.
     *
     * @param what the call, for the time-out message: {@code Plugin.start() of plugin "x"}
     * @throws Timeout when it did not return within {@code limit} (the thread is interrupted)
     * @throws Failed when it threw
     */
    static <T> T call(String thread, ClassLoader loader, Duration limit, String what, Callable<T> action)
            throws Timeout, Failed {
        FutureTask<T> task = new FutureTask<>(action);
        Thread t = new Thread(task, thread);
        t.setDaemon(true);
        t.setContextClassLoader(loader);
        t.start();
        try {
            return task.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.cancel(true);
            throw new Timeout(what + " did not return within " + PluginCallLimits.show(limit));
        } catch (ExecutionException e) {
            throw new Failed(e.getCause());
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new Timeout(what + " was abandoned: the loading thread was interrupted");
        }
    }
}
