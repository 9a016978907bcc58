package io.drover.plugins.rawexec;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.process.CommandConfig;
import io.drover.process.MakeExecutable;
import io.drover.process.ProcessTaskDriver;
import io.drover.process.SpawnSpec;
import io.drover.process.SupervisedTasks;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
public final class RawExecDriver extends ProcessTaskDriver {
    public static final String NAME = "raw_exec";
    /** {@code work_dir}: default the task directory; a relative one is relative to it. */
    static final CommandConfig.WorkDirRule WORK_DIR = new CommandConfig.WorkDirRule(null, s -> !s.isBlank(),
            "must be a non-empty string");
    static final io.drover.driver.api.schema.ConfigSchema TASK_SCHEMA = CommandConfig.schema(WORK_DIR);
    static final io.drover.driver.api.schema.ConfigSchema PLUGIN_SCHEMA = io.drover.process.EnabledFlag.schema(false);

    private volatile boolean enabled;

    public RawExecDriver() {
        super(NAME);
    }

    /**
     * Reads the plugin config; when enabled, loads the native binding and starts the watcher thread here (the
     * first native call costs ~280 ms), so that no task start pays for it.
     */
    @Override
    public void init(DriverContext context) throws DriverException {
        RawExecPluginConfig config = RawExecPluginConfig.parse(context.pluginConfig());
        initTasks(context);
        if (config.enabled()) {
            supervisor();
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
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
        return java.util.Optional.of(TASK_SCHEMA);
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> pluginConfigSchema() {
        return java.util.Optional.of(PLUGIN_SCHEMA);
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return CommandConfig.validate(NAME, config, WORK_DIR);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        if (!enabled) {
            return CompletableFuture.failedFuture(new DriverException(RawExecPluginConfig.DISABLED_MESSAGE, false));
        }
        CommandConfig config;
        try {
            config = CommandConfig.parse(NAME, task.config(), WORK_DIR);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false));
        }
        Path workDir = config.workDir() == null ? task.taskDir() : task.taskDir().resolve(config.workDir());
        // as Nomad's lookupBin: a bare name is first looked for in local/, then at the task dir's root
        String command = io.drover.process.TaskDirCommand.find(config.command(), task.taskDir())
                .map(Path::toString).orElse(config.command());
        SpawnSpec spec = new SpawnSpec(command, config.args(), SupervisedTasks.envWithAgentPath(task),
                workDir, task.stdoutPath(), task.stderrPath(), SupervisedTasks.rotation(task),
                SupervisedTasks.statusFile(task));
        // as Nomad's executor: a script written without perms (a template's local/run.sh) is made executable
        MakeExecutable.forCommand(spec.command(), spec.env().get("PATH"), workDir,
                List.of(task.taskDir(), task.allocDir()));
        return spawn(task, spec);
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
        if (!enabled) {
            throw new DriverException(RawExecPluginConfig.DISABLED_MESSAGE, false);
        }
        return tasks().recover(handle, supervisor());
    }
}
