package io.drover.core.driver;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A loaded plugin's driver as the engine sees it. {@link #start} — the call a third party's plugin is most
 * likely to do synchronously, and to hang in — runs on the driver's own bounded pool ({@code
 * drover-driver-<name>-N}, at most {@code threads} threads, created on demand, gone after 30 s idle), never on the
 * calling engine thread: a plugin whose {@code start} blocks starves only its own driver's starts, which then hit
 * the engine's {@code driver_start_timeout}. Starts queue in submission order behind a full pool; the queue holds
 * task configs only, no threads. The plugin's class loader is the context class loader while its code runs.
 *
 * <p>Every other method is forwarded on the caller's thread: {@code signal} is on the kill-escalation hot path
 * (CONCURRENCY.md, drover-timer) and must stay a direct call; {@code awaitExit}, {@code destroy} and {@code
 * recover} are expected to be quick (SPI contract) and the engine contains their exceptions.
 *
 * <p>Thread-safe. {@link #close()} closes the plugin's driver, then interrupts starts still running and refuses
 * new ones (they fail with a {@link DriverException}).
 */
final class IsolatedDriver extends ForwardingTaskDriver {
    private static final Logger LOG = LoggerFactory.getLogger(IsolatedDriver.class);

    private final String name;
    private final ClassLoader loader;
    private final ThreadPoolExecutor calls;

    IsolatedDriver(TaskDriver plugin, String name, ClassLoader loader, int threads) {
        super(plugin);
        this.name = name;
        this.loader = loader;
        AtomicInteger n = new AtomicInteger();
        this.calls = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "drover-driver-" + name + "-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        calls.allowCoreThreadTimeOut(true);
    }

    /** The plugin's driver itself. */
    TaskDriver plugin() {
        return delegate();
    }

    /** Threads the driver's pool holds now (tests). */
    int threads() {
        return calls.getPoolSize();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        CompletableFuture<TaskHandle> result = new CompletableFuture<>();
        try {
            calls.execute(() -> startOnPool(config, result));
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new DriverException("driver \"" + name + "\" is shut down", false));
        }
        return result;
    }

    private void startOnPool(TaskConfig config, CompletableFuture<TaskHandle> result) {
        CompletionStage<TaskHandle> started;
        try {
            started = DriverFactory.withLoader(loader, () -> delegate().start(config));
        } catch (RuntimeException | LinkageError e) {
            // a plugin's bug, or a class missing from its JAR: the task fails, the engine goes on
            LOG.warn("driver {} threw from start of task {}", name, config.taskName(), e);
            result.completeExceptionally(new DriverException("driver error: " + e, false, e));
            return;
        }
        if (started == null) {
            result.completeExceptionally(new DriverException("driver error: start returned no stage", false));
            return;
        }
        started.whenComplete((handle, err) -> {
            if (err != null) {
                result.completeExceptionally(err);
            } else {
                result.complete(handle);
            }
        });
    }

    @Override
    public void close() {
        try {
            super.close();
        } finally {
            calls.shutdownNow();
        }
    }
}
