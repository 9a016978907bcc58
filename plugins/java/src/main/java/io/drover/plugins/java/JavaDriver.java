package io.drover.plugins.java;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.process.ProcessTaskDriver;
import io.drover.process.SpawnSpec;
import io.drover.process.SupervisedTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.pf4j.Extension;

/**
 * Nomad's java driver: runs {@code <java_home>/bin/java <jvm_options> -jar <jar_path> <args>} or
 * {@code ... -cp <class_path> <class> <args>} as the agent's user, on the same supervision as raw_exec (its own
 * session and process group, signals to the whole group, tree kill, rotated {@code <task>.stdout.N} /
 * {@code .stderr.N}), in the task directory, with the task's environment plus the agent's PATH when the task
 * sets none. The JDK is the one running Drover ({@code java.home}) unless the task sets {@code java_home}. On
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

    public JavaDriver() {
        super(NAME);
    }

    @Override
    public void init(DriverContext context) throws DriverException {
        enabled = JavaPluginConfig.parse(context.pluginConfig()).enabled();
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
                + " (" + System.getProperty("java.vendor", "unknown vendor") + ") at " + java);
    }

    @Override
    public List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return JavaConfig.validate(config, droverHome());
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
        Path javaHome = config.javaHomeOr(defaultJavaHome());
        Path java = javaExecutable(javaHome);
        if (!Files.isRegularFile(java) || !Files.isExecutable(java)) {
            String why = Files.isDirectory(javaHome) ? java + " is not an executable file"
                    : "no such directory";
            return CompletableFuture.failedFuture(new DriverException(
                    "java_home " + javaHome + " is not a JDK or JRE: " + why, false));
        }
        SpawnSpec spec = new SpawnSpec(java.toString(), config.javaArgs(task.taskDir(), home),
                SupervisedTasks.envWithAgentPath(task), task.taskDir(), task.stdoutPath(), task.stderrPath(),
                SupervisedTasks.rotation(task), SupervisedTasks.statusFile(task));
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
