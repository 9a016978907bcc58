package io.drover.core.engine;

import io.drover.core.spec.LogConfig;
import io.drover.core.spec.Task;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Every call a {@link TaskRunner} makes into its task's driver, made safe: a plugin that throws (a bug, a class
 * missing from its JAR) or returns no stage is turned into a failed stage or a log line, never an exception into
 * the engine. Holds the driver bound for the task and the id of its current run.
 *
 * <p>Serial executor of the allocation only; no method blocks on the task (the driver SPI's calls return stages
 * or are quick). {@link #destroy} and {@link #discard} are idempotent as far as drivers' {@code destroy} is.
 */
final class TaskDriverCalls {
    private final Task task;
    private final TaskRunnerHost host;
    private final TaskLog log;

    private TaskDriver driver;
    private String runTaskId;

    TaskDriverCalls(Task task, TaskRunnerHost host, TaskLog log) {
        this.task = task;
        this.host = host;
        this.log = log;
    }

    /** Looks the task's driver up again (a run, a recovery). False when it is not loaded. */
    boolean bind() {
        driver = host.driver(task.driver()).orElse(null);
        return driver != null;
    }

    TaskDriver driver() {
        return driver;
    }

    /** The id of the current run in its driver ({@code alloc/task/run}), null before the first run. */
    String runTaskId() {
        return runTaskId;
    }

    /** Names run {@code run} of the task: its driver task id. */
    void newRun(int run) {
        runTaskId = host.allocId() + "/" + task.name() + "/" + run;
    }

    /** A run re-attached by recovery keeps the id the driver gave it. */
    void recoveredRun(String taskId) {
        runTaskId = taskId;
    }

    /** The driver's view of the run: its id, dirs, env, interpolated config, log rotation. */
    TaskConfig config(TaskPrep prep) throws UnsafePathException {
        Map<String, String> env = prep.env();
        LogConfig logs = task.logs() == null ? LogConfig.DEFAULT : task.logs();
        TaskPaths paths = host.paths(task.name());
        return new TaskConfig(runTaskId, host.allocId(), env.getOrDefault("NOMAD_JOB_ID", ""),
                env.getOrDefault("NOMAD_GROUP_NAME", ""), task.name(), userConfig(prep.config()), env,
                paths.dir(), host.dirs().shared(), paths.stdout(), paths.stderr(), Math.max(1, logs.maxFiles()),
                (long) Math.max(1, logs.maxFileSizeMb()) << 20, prep.mounts(), resources());
    }

    /** The task's {@code resources} block as the driver API's record (Nomad's defaults when the job sets none). */
    private io.drover.driver.api.TaskResources resources() {
        io.drover.core.spec.Resources r = task.runtime() == null || task.runtime().resources() == null
                ? io.drover.core.spec.Resources.DEFAULT : task.runtime().resources();
        return new io.drover.driver.api.TaskResources(Math.max(0, r.cpu()), Math.max(0, r.memoryMb()),
                Math.max(-1, r.memoryMaxMb()));
    }

    /** The task's {@code user} in the config of a driver that takes one ({@link TaskUserConfig}). */
    private Map<String, Object> userConfig(Map<String, Object> config) {
        if (io.drover.core.spec.parse.TaskUserConfig.user(task) == null || driver == null) {
            return config;
        }
        try {
            return io.drover.core.spec.parse.TaskUserConfig.apply(task, config, driver.taskConfigSchema());
        } catch (RuntimeException e) {
            return config; // a driver whose schema throws: its start reports what is wrong
        }
    }

    /** Starts the run; never throws: a driver's exception or missing stage is a failed stage. */
    CompletionStage<TaskHandle> start(TaskConfig config) {
        CompletionStage<TaskHandle> started;
        try {
            started = driver.start(config);
        } catch (RuntimeException | LinkageError e) {
            // a plugin's bug, or a class missing from its JAR: the task fails, the engine goes on
            log.warn("driver {} threw from start of task {}", task.driver(), task.name(), e);
            started = CompletableFuture.failedFuture(new DriverException("driver error: " + e, false, e));
        }
        if (started == null) {
            started = CompletableFuture.failedFuture(
                    new DriverException("driver error: start returned no stage", false));
        }
        return started;
    }

    /** The current run's exit; never throws: a driver's exception or missing stage is a failed stage. */
    CompletionStage<ExitResult> awaitExit() {
        CompletionStage<ExitResult> exit;
        try {
            exit = driver.awaitExit(runTaskId);
        } catch (DriverException | RuntimeException | LinkageError e) {
            exit = CompletableFuture.failedFuture(e);
        }
        if (exit == null) {
            exit = CompletableFuture.failedFuture(new DriverException("awaitExit returned no stage", false));
        }
        return exit;
    }

    /**
     * When the driver says the current run ended (unix nanos), or 0 when it does not know or the call fails: a
     * re-attached run may have ended while no agent ran.
     */
    long completedAtNanos() {
        try {
            return driver.inspect(runTaskId).completedAtNanos();
        } catch (TaskNotFoundException | RuntimeException | LinkageError e) {
            return 0;
        }
    }

    /**
     * Runs {@code command} in the current run through the driver's exec ({@link TaskDriver#exec}); never throws: no
     * run, a driver's exception or a missing stage is a failed stage.
     */
    CompletionStage<ExitResult> exec(java.util.List<String> command, java.time.Duration timeout) {
        if (driver == null || runTaskId == null) {
            return CompletableFuture.failedFuture(new DriverException("task is not running", false));
        }
        CompletionStage<ExitResult> done;
        try {
            done = driver.exec(runTaskId, command, timeout);
        } catch (RuntimeException | LinkageError e) {
            done = CompletableFuture.failedFuture(new DriverException("driver error: " + e, false, e));
        }
        return done != null ? done
                : CompletableFuture.failedFuture(new DriverException("driver error: exec returned no stage", false));
    }

    /** Re-attaches to a run a previous agent started. */
    TaskHandle recover(TaskHandle handle) throws DriverException {
        return driver.recover(handle);
    }

    /** Releases a run in its driver; a driver that throws is logged, never propagated. */
    void destroy(String taskId) {
        try {
            driver.destroy(taskId);
        } catch (RuntimeException | LinkageError e) {
            log.warn("driver {} failed to destroy task {}: {}", task.driver(), taskId, TaskHooks.describe(e));
        }
    }

    /** A run whose start completed after it was abandoned: SIGKILL and destroy. */
    void discard(String taskId) {
        try {
            driver.signal(taskId, Signals.SIGKILL);
        } catch (DriverException | RuntimeException | LinkageError e) {
            log.debug("discarding stale run {}: {}", taskId, TaskHooks.describe(e));
        }
        destroy(taskId);
    }
}
