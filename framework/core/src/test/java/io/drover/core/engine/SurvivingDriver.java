package io.drover.core.engine;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import io.drover.core.time.Nanos;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A driver whose tasks outlive the engine that started them, as real processes outlive an agent: one instance is
 * shared by two engines in a test, and the second {@linkplain #recover re-attaches}. A task runs until it is
 * signalled; it ignores every signal but SIGKILL when its config says {@code ignore_signals = true}. Its start
 * time is the clock of the engine that started it ({@link #init} is called again by the second engine).
 */
final class SurvivingDriver implements TaskDriver {
    private record Run(long startedAtNanos, boolean ignoreSignals, CompletableFuture<ExitResult> exit) {}

    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private volatile Timers timers;

    @Override
    public String name() {
        return "mock";
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true);
    }

    @Override
    public void init(DriverContext context) {
        timers = context.timers();
    }

    @Override
    public DriverHealth health() {
        return DriverHealth.healthy("test");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return List.of();
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        long started = Nanos.of(timers.now());
        runs.put(config.taskId(), new Run(started, Boolean.TRUE.equals(config.config().get("ignore_signals")),
                new CompletableFuture<>()));
        return CompletableFuture.completedFuture(new TaskHandle(config.taskId(), name(), started, Map.of()));
    }

    private Run run(String taskId) throws TaskNotFoundException {
        Run r = runs.get(taskId);
        if (r == null) {
            throw new TaskNotFoundException(taskId);
        }
        return r;
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return run(taskId).exit().copy();
    }

    @Override
    public void signal(String taskId, String signal) throws TaskNotFoundException {
        Run r = run(taskId);
        if (Signals.SIGKILL.equals(signal) || !r.ignoreSignals()) {
            r.exit().complete(ExitResult.signalled(Signals.number(signal)));
        }
    }

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        Run r = run(taskId);
        return new TaskStatus(taskId, r.exit().isDone() ? TaskStatus.State.EXITED : TaskStatus.State.RUNNING,
                r.startedAtNanos(), r.exit().getNow(null));
    }

    @Override
    public void destroy(String taskId) {
        runs.remove(taskId);
    }

    @Override
    public TaskHandle recover(TaskHandle handle) throws TaskNotFoundException {
        run(handle.taskId());
        return handle;
    }

    /** Whether the run of this task id still lives (not destroyed). */
    boolean alive(String taskId) {
        Run r = runs.get(taskId);
        return r != null && !r.exit().isDone();
    }
}
