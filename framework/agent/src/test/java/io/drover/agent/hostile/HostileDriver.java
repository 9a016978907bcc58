package io.drover.agent.hostile;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;

/**
 * Issue 12 item 13's plugin, named "hostile", packed into a real plugin JAR and loaded by a real agent: its
 * {@code health()} blocks (until interrupted), its {@code validateConfig} blocks for a task whose {@code mode} is
 * {@code block_validate}, and its {@code start} throws a StackOverflowError (an Error, not an Exception). No
 * process is ever started.
 */
public final class HostileDriver implements TaskDriver {
    @Override
    public String name() {
        return "hostile";
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(false, false);
    }

    @Override
    public void init(DriverContext context) {}

    @Override
    public DriverHealth health() {
        hang();
        return DriverHealth.healthy("woke up");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        if ("block_validate".equals(config.get("mode"))) {
            hang();
        }
        return List.of();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        throw new StackOverflowError("hostile plugin: start recursed");
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) {
        return new CompletableFuture<>();
    }

    @Override
    public void signal(String taskId, String signal) {}

    @Override
    public TaskStatus inspect(String taskId) {
        throw new IllegalStateException("no task " + taskId);
    }

    @Override
    public void destroy(String taskId) {}

    private static void hang() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
