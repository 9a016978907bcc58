package io.drover.plugins.mock;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import io.drover.driver.api.schema.ConfigSchema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.pf4j.Extension;

/**
 * Nomad's mock driver: tasks that run, exit, fail, log and react to signals as their {@code config} block
 * says, without any process. Keys (all optional): {@code run_for}, {@code exit_code}, {@code exit_signal},
 * {@code exit_err_msg}, {@code start_error}, {@code start_error_recoverable}, {@code start_block_for},
 * {@code kill_after}, {@code signal_error}, {@code ignore_signals}, {@code stdout_string},
 * {@code stdout_repeat}, {@code stdout_repeat_duration} and the same three for stderr; see {@link MockConfig}.
 *
 * <p>All time comes from {@link DriverContext#timers()}: under a virtual clock the driver is deterministic.
 * Thread-safe: any method from any engine thread; timer callbacks on the timer thread. A task becomes known
 * (to {@link #inspect}, {@link #signal}, ...) when its start stage completes. The plugin config block must be
 * empty.
 */
@Extension
public final class MockDriver implements TaskDriver {
    public static final String NAME = "mock";

    private final Map<String, MockTask> tasks = new ConcurrentHashMap<>();
    private volatile Timers timers;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, false);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        context.pluginConfig(ConfigSchema.EMPTY);
        timers = context.timers();
    }

    @Override
    public Optional<ConfigSchema> taskConfigSchema() {
        return Optional.of(MockConfig.SCHEMA);
    }

    /** The mock driver takes no plugin config. */
    @Override
    public Optional<ConfigSchema> pluginConfigSchema() {
        return Optional.of(ConfigSchema.EMPTY);
    }

    @Override
    public DriverHealth health() {
        return DriverHealth.healthy("mock driver ready");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return MockConfig.validate(config);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        Timers t = requireTimers();
        MockConfig config;
        try {
            config = MockConfig.parse(task.config());
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false));
        }
        CompletableFuture<TaskHandle> started = new CompletableFuture<>();
        Runnable run = () -> {
            try {
                run(task, config, t, started);
            } catch (RuntimeException e) {
                started.completeExceptionally(new DriverException("mock start failed: " + e, false, e));
            }
        };
        if (config.startBlockFor().isZero()) {
            run.run();
        } else {
            t.schedule(config.startBlockFor(), run);
        }
        return started;
    }

    private void run(TaskConfig task, MockConfig config, Timers t, CompletableFuture<TaskHandle> started) {
        if (!config.startError().isEmpty()) {
            started.completeExceptionally(new DriverException(config.startError(), config.startErrorRecoverable()));
            return;
        }
        long startedAt = nanos(t.now());
        MockTask mock = new MockTask(task.taskId(), config, t, startedAt, task.stdoutPath(), task.stderrPath());
        if (tasks.putIfAbsent(task.taskId(), mock) != null) {
            started.completeExceptionally(new DriverException("task " + task.taskId() + " already started", false));
            return;
        }
        mock.begin();
        started.complete(new TaskHandle(task.taskId(), NAME, startedAt, Map.of()));
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return task(taskId).exitStage();
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
        MockTask mock = task(taskId);
        String canonical = Signals.canonical(signal)
                .orElseThrow(() -> new DriverException("unknown signal \"" + signal + "\"", false));
        mock.signal(canonical);
    }

    /**
     * As Nomad's mock driver: an exec in a running task succeeds at once (exit code 0) and runs nothing; in an
     * ended task it fails.
     */
    @Override
    public CompletionStage<ExitResult> exec(String taskId, List<String> command, java.time.Duration timeout) {
        try {
            if (task(taskId).status().state() != TaskStatus.State.RUNNING) {
                throw new DriverException("task is not running", false);
            }
        } catch (DriverException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        return java.util.concurrent.CompletableFuture.completedFuture(ExitResult.code(0));
    }

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        return task(taskId).status();
    }

    @Override
    public void destroy(String taskId) {
        MockTask mock = tasks.remove(taskId);
        if (mock != null) {
            mock.kill();
        }
    }

    private MockTask task(String taskId) throws TaskNotFoundException {
        MockTask mock = tasks.get(taskId);
        if (mock == null) {
            throw new TaskNotFoundException(taskId);
        }
        return mock;
    }

    private Timers requireTimers() {
        Timers t = timers;
        if (t == null) {
            throw new IllegalStateException("mock driver used before init");
        }
        return t;
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
