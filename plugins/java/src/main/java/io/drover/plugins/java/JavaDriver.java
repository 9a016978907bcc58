package io.drover.plugins.java;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.process.IsolationModes;
import io.drover.process.Namespaces;
import io.drover.process.ProcessTaskDriver;
import io.drover.process.SpawnSpec;
import io.drover.process.SupervisedTasks;
import io.drover.process.TaskUser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.pf4j.Extension;

/**
 * Nomad's java driver: runs {@code <java_home>/bin/java <jvm_options> -jar <jar_path> <args>} or
 * {@code ... -cp <class_path> <class> <args>} as user {@code nobody} (or the task's {@code user}, never root unless
 * the plugin config allows it: {@link TaskUsers}; an agent that is not root runs it as itself), on the same
 * supervision as raw_exec (its own
 * session and process group, signals to the whole group, tree kill, rotated {@code <task>.stdout.N} /
 * {@code .stderr.N}), in the task directory, with the task's environment plus the agent's PATH when the task
 * sets none. As root, the JVM is PID 1 of a PID namespace of its own with a private {@code /proc} and has an IPC
 * namespace of its own, unless {@code pid_mode} / {@code ipc_mode} (or the plugin's defaults) say {@code "host"}
 * (Nomad's defaults; made by the shim, see {@link io.drover.process.Namespaces}). The JDK is the one running Drover ({@code java.home}) unless the task sets {@code java_home}. On
 * unless the plugin config says {@code enabled = false}, as Nomad's java driver is on by default.
 *
 * <p>Thread-safe; no method blocks on a task. The native binding (~280 ms the first time) is loaded by the first
 * start rather than by {@link #init}: the driver is on in every agent, and a JVM start costs more than that
 * anyway, so agents that never run a java task do not pay for it.
 */
@Extension
public final class JavaDriver extends ProcessTaskDriver {
    public static final String NAME = "java";

    private volatile boolean enabled = true;
    private volatile TaskUsers users;
    /** The plugin's default modes; null when the agent is not root (no namespaces, as Nomad's universal executor). */
    private volatile IsolationModes modes;

    public JavaDriver() {
        super(NAME);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        JavaPluginConfig config = JavaPluginConfig.parse(context.pluginConfig());
        enabled = config.enabled();
        java.util.Optional<Integer> euid = TaskUser.effectiveUid();
        users = TaskUsers.create(config, euid);
        modes = euid.orElse(-1) == 0 ? config.modes() : null;
        initTasks(context);
    }

    /** Healthy when the default JDK's {@code bin/java} is an executable file; says which JDK. */
    @Override
    public DriverHealth health() {
        if (!enabled) {
            return DriverHealth.unhealthy(JavaPluginConfig.DISABLED_MESSAGE);
        }
        Path java = javaExecutable(Path.of(defaultJavaHome()));
        if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
            return DriverHealth.unhealthy("no executable java at " + java);
        }
        return DriverHealth.healthy("java " + System.getProperty("java.runtime.version", Runtime.version().toString())
                + " (" + System.getProperty("java.vendor", "unknown vendor") + ") at " + java
                + (users == null ? "" : "; " + users.describeDefault())
                + (modes == null ? "; no PID or IPC namespaces (the agent is not root)"
                        : "; default pid_mode " + modes.pid() + ", ipc_mode " + modes.ipc()));
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
        return java.util.Optional.of(JavaConfig.SCHEMA);
    }

    @Override
    public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> pluginConfigSchema() {
        return java.util.Optional.of(JavaPluginConfig.SCHEMA);
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        List<ConfigProblem> problems = JavaConfig.validate(config, droverHome());
        if (problems.isEmpty() && users != null) {
            ConfigProblem user = users.resolve(JavaConfig.parse(config, droverHome()).user()).problem();
            if (user != null) {
                return List.of(user);
            }
        }
        return problems;
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig task) {
        if (!enabled) {
            return CompletableFuture.failedFuture(new DriverException(JavaPluginConfig.DISABLED_MESSAGE, false));
        }
        String home = droverHome();
        JavaConfig config;
        try {
            config = JavaConfig.parse(task.config(), home);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false));
        }
        TaskUsers.Resolution user = users.resolve(config.user());
        if (user.problem() != null) {
            return CompletableFuture.failedFuture(new DriverException("invalid java config: " + user.problem().key()
                    + ": " + user.problem().message(), false));
        }
        Path javaHome = config.javaHomeOr(defaultJavaHome());
        Path java = javaExecutable(javaHome);
        if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
            String why = Files.isDirectory(javaHome) ? java + " is not an executable file"
                    : "no such directory";
            return CompletableFuture.failedFuture(new DriverException(
                    "java_home " + javaHome + " is not a JDK or JRE: " + why, false));
        }
        if (user.dropTo() != null) {
            try {
                user.dropTo().own(writableDirs(task));
            } catch (IOException | RuntimeException e) {
                return CompletableFuture.failedFuture(new DriverException(
                        "java: cannot prepare the task directory for user " + user.dropTo().name() + ": "
                                + e.getMessage(), false, e));
            }
        }
        SpawnSpec spec = new SpawnSpec(java.toString(), config.javaArgs(task.taskDir(), home),
                SupervisedTasks.envWithAgentPath(task), task.taskDir(), task.stdoutPath(), task.stderrPath(),
                SupervisedTasks.rotation(task), SupervisedTasks.statusFile(task), user.dropTo(), namespaces(task));
        return spawn(task, spec);
    }

    /**
     * Re-attaches to a task an earlier agent started, exactly as raw_exec does (the same shim and
     * {@link SupervisedTasks#recover}): a running JVM is watched again, one that ended while no agent ran has
     * already exited with the code its shim recorded.
     *
     * @throws TaskNotFoundException when its end cannot be known (the engine records "Not Recovered")
     * @throws DriverException when the java driver is disabled or closed
     */
    @Override
    public TaskHandle recover(TaskHandle handle) throws DriverException {
        if (!enabled) {
            throw new DriverException(JavaPluginConfig.DISABLED_MESSAGE, false);
        }
        return tasks().recover(handle, supervisor());
    }

    /**
     * What a task user gets, as with exec: the task's {@code local}, {@code secrets} and {@code tmp}, and the
     * allocation's {@code data} and {@code tmp} when they exist. The task directory itself stays root's (the
     * shim's exit record lives there).
     */
    private static List<Path> writableDirs(TaskConfig task) {
        List<Path> dirs = new ArrayList<>();
        for (String d : List.of("local", "secrets", "tmp")) {
            dirs.add(task.taskDir().resolve(d));
        }
        for (String d : List.of("data", "tmp")) {
            Path p = task.allocDir().resolve(d);
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                dirs.add(p);
            }
        }
        return dirs;
    }

    /**
     * The task's namespaces: its {@code pid_mode} / {@code ipc_mode}, else the plugin's defaults, when the agent is
     * root; none otherwise (an agent that is not root cannot make them: its tasks share the host's, as Nomad's
     * java tasks do where Nomad runs them without isolation).
     */
    private Namespaces namespaces(TaskConfig task) {
        IsolationModes m = modes;
        return m == null ? Namespaces.HOST : m.namespaces(task.config());
    }

    private static Path javaExecutable(Path javaHome) {
        return javaHome.resolve("bin").resolve("java");
    }

    private static String defaultJavaHome() {
        return System.getProperty("java.home");
    }

    private static String droverHome() {
        return System.getProperty(JavaConfig.HOME_PROPERTY);
    }
}
