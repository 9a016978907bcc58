package io.drover.core.engine;

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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/** Delegates to a real driver and records every start and signal, in call order ("start web", "SIGINT web"). */
final class RecordingDriver implements TaskDriver {
    private final TaskDriver delegate;
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    RecordingDriver(TaskDriver delegate) {
        this.delegate = delegate;
    }

    private static String task(String taskId) {
        String[] parts = taskId.split("/");
        return parts.length >= 2 ? parts[1] : taskId;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Capabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        delegate.init(context);
    }

    @Override
    public DriverHealth health() {
        return delegate.health();
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return delegate.validateConfig(config);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        calls.add("start " + config.taskName());
        return delegate.start(config);
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return delegate.awaitExit(taskId);
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
        calls.add(signal + " " + task(taskId));
        delegate.signal(taskId, signal);
    }

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        return delegate.inspect(taskId);
    }

    @Override
    public void destroy(String taskId) {
        delegate.destroy(taskId);
    }
}
