package io.drover.driver.api;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * A driver that forwards every call to another one: extend it and override only what you want to observe or
 * change (tests record calls this way; a host can time them). Same contract as {@link TaskDriver}; adds no
 * state and no threads of its own.
 */
public abstract class ForwardingTaskDriver implements TaskDriver {
    private final TaskDriver delegate;

    protected ForwardingTaskDriver(TaskDriver delegate) {
        this.delegate = delegate;
    }

    protected final TaskDriver delegate() {
        return delegate;
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
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
        return delegate.taskConfigSchema();
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> pluginConfigSchema() {
        return delegate.pluginConfigSchema();
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return delegate.validateConfig(config);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        return delegate.start(config);
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return delegate.awaitExit(taskId);
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
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

    @Override
    public CompletionStage<ExitResult> exec(String taskId, List<String> command, java.time.Duration timeout) {
        return delegate.exec(taskId, command, timeout);
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        return delegate.recover(handle);
    }

    @Override
    public java.util.Set<String> killUnrecordedRuns(java.nio.file.Path allocRoot, java.util.Set<String> keep) {
        return delegate.killUnrecordedRuns(allocRoot, keep);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
