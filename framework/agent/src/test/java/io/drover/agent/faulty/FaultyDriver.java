package io.drover.agent.faulty;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A third party's broken driver plugin, named "faulty", packed into a real plugin JAR by {@link
 * io.drover.agent.FaultyPluginJar} and loaded by a real agent from its plugin dir. Each task's {@code mode} says
 * how it misbehaves:
 * <ul>
 *   <li>{@code throw_start}: start throws;
 *   <li>{@code block_start}: start blocks its calling thread (until the agent shuts the driver down);
 *   <li>{@code never_start}: start returns a stage that never completes;
 *   <li>{@code die_mid_task}: starts, then its exit stage fails 200 ms later ("watcher thread died");
 *   <li>{@code throw_on_signal}: starts, never exits by itself, and every signal throws.
 * </ul>
 * {@code inspect} and {@code destroy} always throw. No process is ever started.
 */
public final class FaultyDriver implements TaskDriver {
    public static final List<String> MODES =
            List.of("throw_start", "block_start", "never_start", "die_mid_task", "throw_on_signal");

    private final CountDownLatch shutdown = new CountDownLatch(1);
    private final Map<String, CompletableFuture<ExitResult>> exits = new ConcurrentHashMap<>();
    private volatile DriverContext context;

    @Override
    public String name() {
        return "faulty";
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, false);
    }

    @Override
    public void init(DriverContext context) {
        this.context = context;
    }

    @Override
    public DriverHealth health() {
        return DriverHealth.healthy("faulty by design");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        Object mode = config.get("mode");
        return MODES.contains(String.valueOf(mode)) ? List.of()
                : List.of(new ConfigProblem("mode", "must be one of " + MODES + ", found " + mode));
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        String mode = String.valueOf(config.config().get("mode"));
        TaskHandle handle = new TaskHandle(config.taskId(), name(), 0, Map.of());
        switch (mode) {
            case "throw_start" -> throw new IllegalStateException("faulty plugin: start exploded");
            case "block_start" -> {
                try {
                    shutdown.await(); // a synchronous, hanging third-party implementation
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new IllegalStateException("faulty plugin: start interrupted");
            }
            case "never_start" -> {
                return new CompletableFuture<>();
            }
            case "die_mid_task" -> {
                CompletableFuture<ExitResult> exit = new CompletableFuture<>();
                exits.put(config.taskId(), exit);
                context.timers().schedule(Duration.ofMillis(200), () -> exit.completeExceptionally(
                        new IllegalStateException("faulty plugin: watcher thread died")));
                return CompletableFuture.completedFuture(handle);
            }
            default -> {
                exits.put(config.taskId(), new CompletableFuture<>()); // throw_on_signal: never exits
                return CompletableFuture.completedFuture(handle);
            }
        }
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) {
        CompletableFuture<ExitResult> exit = exits.get(taskId);
        return exit != null ? exit : CompletableFuture.failedFuture(new IllegalStateException("unknown " + taskId));
    }

    @Override
    public void signal(String taskId, String signal) {
        throw new IllegalStateException("faulty plugin: signal exploded");
    }

    @Override
    public TaskStatus inspect(String taskId) {
        throw new IllegalStateException("faulty plugin: inspect exploded");
    }

    @Override
    public void destroy(String taskId) {
        exits.remove(taskId);
        throw new IllegalStateException("faulty plugin: destroy exploded");
    }

    @Override
    public void close() {
        shutdown.countDown();
    }
}
