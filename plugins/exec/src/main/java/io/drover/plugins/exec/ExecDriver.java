package io.drover.plugins.exec;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.process.CommandConfig;
import io.drover.process.IsolationModes;
import io.drover.process.MakeExecutable;
import io.drover.process.ProcessTaskDriver;
import io.drover.process.SpawnSpec;
import io.drover.process.SupervisedTasks;
import io.drover.process.UnrecordedRuns;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.pf4j.Extension;

/**
 * Nomad's exec: runs {@code command} with {@code args} as user nobody, chrooted into its task directory, in a private
 * mount namespace and, unless {@code pid_mode} / {@code ipc_mode} (or the plugin's {@code default_pid_mode} /
 * {@code default_ipc_mode}) say {@code "host"}, private PID and IPC namespaces made by the shim (the task is PID 1
 * of its namespace; the network namespace is the host's), with the task's environment (plus the
 * agent's PATH when the task sets none; applied only after the drop to nobody, see {@link TaskEnvFile}), from {@code work_dir} (default {@code /}, the task directory), output
 * rotated into {@code <task>.stdout.N} / {@code .stderr.N} as with raw_exec. See {@link Chroot} for the wrapper.
 *
 * <p>Paths: inside the chroot the task sees Nomad's values, so environment values and arguments (and the command)
 * that start with the task directory or the allocation's shared directory are rewritten: {@code NOMAD_TASK_DIR} is
 * {@code /local}, {@code NOMAD_SECRETS_DIR} {@code /secrets}, {@code NOMAD_ALLOC_DIR} {@code /alloc}.
 *
 * <p>Host volumes ({@link io.drover.driver.api.TaskConfig#mounts()}): bind-mounted into the chroot inside the run's
 * private mount namespace ({@link VolumeBinds}), so they vanish with the run.
 *
 * <p>Everything after the spawn — exit status through the shim, logs, signals to the group, tree kill, re-attach,
 * killing unrecorded runs — is raw_exec's ({@link SupervisedTasks}): the wrapper execs its way to the task, so
 * the task is the process the shim spawned. On by default; healthy only as root with unshare, mount and chroot
 * ({@link Chroot#detect}), checked once at init. Thread-safe; no method blocks on a task (the first start or
 * recover loads the native binding, ~0.3 s, once).
 */
@Extension
public final class ExecDriver extends ProcessTaskDriver {
    public static final String NAME = "exec";
    /** {@code work_dir}: an absolute path inside the chroot, as Nomad requires; default {@code /}, the task dir. */
    static final CommandConfig.WorkDirRule WORK_DIR = new CommandConfig.WorkDirRule("/", s -> s.startsWith("/"),
            "must be an absolute path inside the task's chroot (\"/local\")");
    /** Nomad's {@code pid_mode} and {@code ipc_mode} ({@link IsolationModes}), besides command, args, work_dir. */
    static final io.drover.driver.api.schema.Attribute[] MODES = {
            IsolationModes.taskAttribute(IsolationModes.PID_MODE), IsolationModes.taskAttribute(IsolationModes.IPC_MODE)};
    static final io.drover.driver.api.schema.ConfigSchema TASK_SCHEMA = CommandConfig.schema(WORK_DIR, MODES);
    static final io.drover.driver.api.schema.ConfigSchema PLUGIN_SCHEMA = ExecPluginConfig.SCHEMA;
    /** Environment entries that must keep their host values: how a later agent finds an unrecorded run. */
    private static final Set<String> HOST_VALUES = Set.of(UnrecordedRuns.RUN_DIR_VAR, UnrecordedRuns.RUN_ID_VAR);

    /** What init found: the wrapper to use, or why exec cannot run here (disabled, not root...). */
    private volatile Chroot.Result machine = Chroot.Result.problem("exec driver not initialised");
    private volatile IsolationModes modes = IsolationModes.DEFAULTS;
    private final java.util.function.Supplier<Chroot.Result> detector;

    public ExecDriver() {
        this(Chroot::detect);
    }

    /** With another check of the machine (tests). */
    ExecDriver(java.util.function.Supplier<Chroot.Result> detector) {
        super(NAME);
        this.detector = detector;
    }

    /**
     * Reads the plugin config; when enabled, checks this machine once (uid, tools, a private mount namespace: a few
     * milliseconds). The native binding and the watcher thread come with the first start or recover, as in the java
     * driver: exec is on in every agent, and an agent that runs no exec task should not pay ~0.3 s for them.
     */
    @Override
    public void init(DriverContext context) throws DriverException {
        ExecPluginConfig config = ExecPluginConfig.parse(context.pluginConfig());
        modes = config.modes();
        initTasks(context);
        machine = config.enabled() ? detector.get() : Chroot.Result.problem(ExecPluginConfig.DISABLED_MESSAGE);
    }

    /** raw_exec's abilities, and host volumes mounted into the chroot (Nomad's exec: {@code MountConfigSupportAll}). */
    @Override
    public io.drover.driver.api.Capabilities capabilities() {
        return new io.drover.driver.api.Capabilities(true, true, true);
    }

    @Override
    public DriverHealth health() {
        Chroot.Result m = machine;
        return m.chroot() == null ? DriverHealth.unhealthy(m.problem())
                : DriverHealth.healthy("exec ready (chroot, mount namespace, user nobody; default pid_mode "
                        + modes.pid() + ", ipc_mode " + modes.ipc() + ")");
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
        return CommandConfig.validate(NAME, config, WORK_DIR, MODES);
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        Chroot.Result m = machine;
        Chroot c = m.chroot();
        if (c == null) {
            return CompletableFuture.failedFuture(new DriverException(m.problem(), false));
        }
        CommandConfig config;
        try {
            config = CommandConfig.parse(NAME, task.config(), WORK_DIR, MODES);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false));
        }
        Path taskDir = task.taskDir();
        Path allocDir = task.allocDir();
        Map<String, String> env = Chroot.insideEnv(SupervisedTasks.envWithAgentPath(task), taskDir, allocDir,
                HOST_VALUES);
        String command = Chroot.inTaskDir(Chroot.inside(config.command(), taskDir, allocDir), taskDir);
        List<String> args = config.args().stream().map(a -> Chroot.inside(a, taskDir, allocDir)).toList();
        java.util.Optional<Path> hostCommand = c.hostCommand(command, env.get("PATH"), config.workDir(), taskDir,
                allocDir);
        if (hostCommand.isEmpty()) {
            return CompletableFuture.failedFuture(new DriverException(
                    "exec: \"" + command + "\": No such file or directory in the task's chroot", false));
        }
        List<String> badNames = TaskEnvFile.badNames(env);
        if (!badNames.isEmpty()) {
            return CompletableFuture.failedFuture(new DriverException("exec: env " + String.join(", ", badNames)
                    + ": not a valid environment variable name for exec (letters, digits and _, not starting with"
                    + " a digit)", false));
        }
        List<VolumeBinds.Bind> binds;
        try {
            c.prepare(taskDir, allocDir);
            // a destination made of the engine's host paths (${NOMAD_TASK_DIR}/x) is the chroot's (/local/x)
            binds = VolumeBinds.prepare(task.mounts().stream().map(v -> new io.drover.driver.api.MountConfig(
                    v.volume(), v.hostPath(), Chroot.inside(v.taskPath(), taskDir, allocDir), v.readOnly(),
                    v.propagationMode())).toList(), taskDir, c.bound);
            TaskEnvFile.write(taskDir, env, c.uid, c.gid);
            // as Nomad's executor: a script written without perms (a template's local/run.sh) is made executable;
            // a host command bound into the chroot (/bin/sh) is outside both roots and never touched
            MakeExecutable.ensure(hostCommand.get(), List.of(taskDir, allocDir));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(new DriverException(
                    "exec: cannot prepare the task directory: " + e.getMessage(), false, e));
        }
        SpawnSpec spec = new SpawnSpec(c.unshare, c.wrapperArgs(taskDir, allocDir, config.workDir(), command, args,
                binds),
                TaskEnvFile.rootEnv(env), taskDir, task.stdoutPath(), task.stderrPath(), SupervisedTasks.rotation(task),
                SupervisedTasks.statusFile(task), null, modes.namespaces(task.config()));
        return spawn(task, spec);
    }

    /**
     * An exec in a running task, inside its isolation ({@link Chroot#execArgs}): the task's mount and IPC
     * namespaces, its chroot, user nobody, its environment and work directory. A run re-attached from an earlier
     * agent is entered the same way, from its task directory (work directory {@code /}).
     */
    @Override
    protected SpawnSpec execSpec(io.drover.process.RunExec.Run run, List<String> command) throws DriverException {
        Chroot c = machine.chroot();
        if (c == null) {
            throw new DriverException(machine.problem(), false);
        }
        String nsenter = Chroot.nsenter().orElseThrow(() -> new DriverException(
                "exec: nsenter is not on this host's PATH: cannot enter the task", false));
        int pid = run.taskPid();
        if (pid <= 0) {
            throw new DriverException("task is not running", false);
        }
        Path taskDir = run.taskDir();
        String workDir = "/";
        Map<String, String> env = Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin");
        if (run.spec() != null) {
            workDir = Chroot.wrapped(run.spec().args()).map(w -> w[1]).orElse("/");
            env = run.spec().env();
        }
        List<String> argv = c.execArgs(nsenter, pid, taskDir, workDir, command);
        return io.drover.process.RunExec.around(run, argv, taskDir, env, null);
    }

    /**
     * Re-attaches to a task an earlier agent started (see {@link SupervisedTasks#recover}); its mount namespace
     * lives as long as its processes do, so nothing else needs restoring.
     *
     * @throws TaskNotFoundException when its end cannot be known (the engine records "Not Recovered")
     * @throws DriverException when exec cannot run here
     */
    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        Chroot.Result m = machine;
        if (m.chroot() == null) {
            throw new DriverException(m.problem(), false);
        }
        return tasks().recover(handle, supervisor());
    }
}
