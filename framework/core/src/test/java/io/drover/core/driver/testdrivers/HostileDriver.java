package io.drover.core.driver.testdrivers;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * A driver whose {@code health()} and {@code validateConfig} block until interrupted and whose {@code start}
 * throws an Error: issue 12 item 13's plugin.
 */
public final class HostileDriver extends BaseTestDriver {
    @Override
    public String name() {
        return "hostile";
    }

    @Override
    public DriverHealth health() {
        Hang.untilInterrupted();
        return DriverHealth.healthy("woke up");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        Hang.untilInterrupted();
        return List.of();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        throw new StackOverflowError("hostile plugin: start recursed");
    }
}
