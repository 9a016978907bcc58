package io.drover.core.driver;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.ConfigProblem;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
 * <p>{@code validateConfig} (called on the thread that submits a job) runs on a second small pool and is waited for
 * at most a limit. Every other method is forwarded on the caller's thread: {@code signal} is on the kill-escalation hot path
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

    private final ThreadPoolExecutor checks;
    private final Duration checkLimit;
    private final DriverSchemas schemas;

    IsolatedDriver(TaskDriver plugin, String name, ClassLoader loader, int threads) {
        this(plugin, name, loader, threads, PluginCallLimits.DEFAULT.validate());
    }

    IsolatedDriver(TaskDriver plugin, String name, ClassLoader loader, int threads, Duration checkLimit) {
        this(plugin, name, loader, threads, checkLimit, DriverSchemas.NONE);
    }

    /** @param schemas the plugin's schemas, read once at load (never asked of the plugin again) */
    IsolatedDriver(TaskDriver plugin, String name, ClassLoader loader, int threads, Duration checkLimit,
            DriverSchemas schemas) {
        super(plugin);
        this.schemas = schemas;
        this.name = name;
        this.loader = loader;
        this.checkLimit = checkLimit;
        this.calls = pool("drover-driver-" + name + "-", threads);
        this.checks = pool("drover-driver-" + name + "-check-", CHECK_THREADS);
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
        return schemas.task();
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> pluginConfigSchema() {
        return schemas.plugin();
    }

    /** Threads that may run the plugin's validateConfig at once; more checks queue, each bounded by its limit. */
    static final int CHECK_THREADS = 2;

    private static ThreadPoolExecutor pool(String prefix, int threads) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, prefix + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * The plugin's check of a task config, on the driver's check pool ({@code drover-driver-<name>-check-N}, at most
     * {@value #CHECK_THREADS} threads), waited for at most the limit: a check that blocks or throws (an Error too)
     * becomes one problem naming the driver, so a job submission answers 400 instead of hanging its connection.
     * Blocks the caller at most the limit (counted from the call, queueing included).
     */
    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        FutureTask<List<ConfigProblem>> check = new FutureTask<>(
                () -> DriverFactory.withLoader(loader, () -> delegate().validateConfig(config)));
        try {
            checks.execute(check);
            return check.get(checkLimit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            return List.of(new ConfigProblem("", "driver \"" + name + "\" is shut down"));
        } catch (TimeoutException e) {
            check.cancel(true);
            return List.of(new ConfigProblem("", "driver \"" + name + "\" did not check the config within "
                    + PluginCallLimits.show(checkLimit) + " (its validateConfig blocks)"));
        } catch (ExecutionException e) {
            return List.of(new ConfigProblem("", "driver \"" + name + "\" failed to check the config: "
                    + Problems.describe(e.getCause())));
        } catch (InterruptedException e) {
            check.cancel(true);
            Thread.currentThread().interrupt();
            return List.of(new ConfigProblem("", "driver \"" + name + "\": config check interrupted"));
        }
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
        } catch (Throwable e) {
            // a plugin's bug, a class missing from its JAR, any Error: the task fails at once with it, the pool
            // thread and the engine go on (an escaping Error would end the thread and leave the start unanswered)
            LOG.warn("driver {} threw from start of task {}: {}", name, config.taskName(), e.toString());
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
            checks.shutdownNow();
        }
    }
}
