package io.drover.core.driver.testdrivers;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Base of the drivers the registry tests pack into plugin JARs. Not annotated with {@code @Extension}: the
 * tests write each JAR's {@code META-INF/extensions.idx} themselves. Its health reports the plugin config that
 * init received, so a test can see it through the plugin's class loader.
 */
public abstract class BaseTestDriver implements TaskDriver {
    protected volatile DriverContext context;

    @Override
    public Capabilities capabilities() {
        return new Capabilities(false, false);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        this.context = context;
    }

    @Override
    public DriverHealth health() {
        if (Boolean.TRUE.equals(context.pluginConfig().get("health_throws"))) {
            throw new IllegalStateException("probe exploded");
        }
        return DriverHealth.healthy("config " + new java.util.TreeMap<>(context.pluginConfig()) + ", host "
                + context.hostVersion());
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return List.of();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        return CompletableFuture.completedFuture(new TaskHandle(config.taskId(), name(), 0, Map.of()));
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return CompletableFuture.completedFuture(ExitResult.code(0));
    }

    @Override
    public void signal(String taskId, String signal) {}

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        throw new TaskNotFoundException(taskId);
    }

    @Override
    public void destroy(String taskId) {}
}
