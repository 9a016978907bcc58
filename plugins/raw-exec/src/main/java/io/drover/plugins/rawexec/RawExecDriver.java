package io.drover.plugins.rawexec;

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
import io.drover.process.CommandConfig;
import io.drover.process.KillReport;
import io.drover.process.ProcessSupervisor;
import io.drover.process.SpawnSpec;
import io.drover.process.SupervisedTasks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.pf4j.Extension;

/**
 * Nomad's raw_exec: runs {@code command} with {@code args} as the agent's user, in its own session and process
 * group, with the task's environment (plus the agent's PATH when the task sets none) in {@code work_dir}
 * (default: the task directory), stdout and stderr through pipes into {@code <task>.stdout.N} /
 * {@code .stderr.N}, rotated per the task's {@code logs} block ({@link TaskConfig#logMaxFiles()},
 * {@link TaskConfig#logMaxFileSize()}). Disabled unless the plugin config says {@code enabled = true}.
 *
 * <p>Thread-safe; no method blocks on a task. {@link #start} spawns synchronously (about a millisecond) and
 * returns a completed stage; exits complete on the supervisor's single watcher thread. Signals go to the
 * task's whole process group; SIGKILL kills the whole tree (see {@link SupervisedProcess#killTree()}).
 * {@link #destroy} also kills whatever an exited task left behind in its session or group.
 *
 * <p>Re-attach: every task runs under the exit-status shim, which records how the task ended even when no agent
 * runs, keeps the output pipes open and, as a child subreaper, kills what the task leaves behind when it ends; the
 * handle carries what {@link #recover} needs (docs/process-supervision.md, "Re-attach").
 */
@Extension
public final class RawExecDriver implements TaskDriver {
    public static final String NAME = "raw_exec";
    /** {@code work_dir}: default the task directory; a relative one is relative to it. */
    static final CommandConfig.WorkDirRule WORK_DIR = new CommandConfig.WorkDirRule(null, s -> !s.isBlank(),
            "must be a non-empty string");

    private volatile boolean enabled;
    private volatile ProcessSupervisor supervisor;
    private volatile SupervisedTasks tasks;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true);
    }

    /**
     * Reads the plugin config; when enabled, loads the native binding and starts the watcher thread here (the
     * first native call costs ~280 ms), so that no task start pays for it.
     */
    @Override
    public void init(DriverContext context) throws DriverException {
        RawExecPluginConfig config = RawExecPluginConfig.parse(context.pluginConfig());
        tasks = new SupervisedTasks(NAME, context.timers());
        if (config.enabled()) {
            try {
                supervisor = ProcessSupervisor.create(NAME);
            } catch (UnsupportedOperationException e) {
                throw new DriverException(e.getMessage(), false, e);
            }
        }
        enabled = config.enabled();
    }

    @Override
    public DriverHealth health() {
        if (!enabled) {
            return DriverHealth.unhealthy(RawExecPluginConfig.DISABLED_MESSAGE);
        }
        return DriverHealth.healthy("raw_exec ready");
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return CommandConfig.validate(NAME, config, WORK_DIR);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        ProcessSupervisor sup = supervisor;
        if (!enabled || sup == null) {
            return CompletableFuture.failedFuture(new DriverException(RawExecPluginConfig.DISABLED_MESSAGE, false));
        }
        CommandConfig config;
        try {
            config = CommandConfig.parse(NAME, task.config(), WORK_DIR);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false));
        }
        Path workDir = config.workDir() == null ? task.taskDir() : task.taskDir().resolve(config.workDir());
        SpawnSpec spec = new SpawnSpec(config.command(), config.args(), SupervisedTasks.envWithAgentPath(task),
                workDir, task.stdoutPath(), task.stderrPath(), SupervisedTasks.rotation(task),
                SupervisedTasks.statusFile(task));
        return tasks.start(task.taskId(), sup, spec);
    }

    /**
     * Re-attaches to a task an earlier agent started (see {@link SupervisedTasks#recover}): a running one is
     * watched again, one that ended while no agent ran has already exited with the code its shim recorded.
     *
     * @throws TaskNotFoundException when its end cannot be known (the engine records "Not Recovered")
     * @throws DriverException when raw_exec is disabled
     */
    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        ProcessSupervisor sup = supervisor;
        if (!enabled || sup == null) {
            throw new DriverException(RawExecPluginConfig.DISABLED_MESSAGE, false);
        }
        return tasks.recover(handle, sup);
    }

    /** Kills the runs an earlier agent started but never recorded (see {@link SupervisedTasks#killUnrecordedRuns}). */
    @Override
    public java.util.Set<String> killUnrecordedRuns(java.nio.file.Path allocRoot, java.util.Set<String> keep) {
        return tasks.killUnrecordedRuns(allocRoot, keep);
    }

    @Override
    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return tasks.awaitExit(taskId);
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
        tasks.signal(taskId, signal);
    }

    @Override
    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        return tasks.inspect(taskId);
    }

    /**
     * The latest tree kill of a task (its SIGKILL, or the sweep of {@link #destroy}), with the processes that
     * survived it; empty when none was started.
     */
    public Optional<CompletionStage<KillReport>> lastKill(String taskId) throws TaskNotFoundException {
        return tasks.lastKill(taskId);
    }

    /**
     * Forgets the task after killing its tree: the task itself if it still runs, and whatever it left in its
     * session or group if it exited. Survivors are logged. Idempotent; returns without waiting.
     */
    @Override
    public void destroy(String taskId) {
        SupervisedTasks t = tasks;
        if (t != null) {
            t.destroy(taskId);
        }
    }

    /** Stops the watcher thread; running tasks are left alone (the host decides about them). */
    @Override
    public void close() {
        ProcessSupervisor sup = supervisor;
        if (sup != null) {
            sup.close();
        }
    }
}
