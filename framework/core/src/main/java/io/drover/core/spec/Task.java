package io.drover.core.spec;

import java.time.Duration;
import java.util.Map;

/**
 * One task of a group, with effective settings (group defaults and Nomad's defaults applied).
 *
 * @param config the driver's {@code config} block as parsed: String, Long, Double, Boolean, List, Map values;
 *     {@code ${...}} references kept verbatim (interpolated when the task starts)
 * @param env the {@code env} block, values verbatim
 * @param lifecycle null for a main task
 * @param restart effective restart policy (task's own, else the group's)
 * @param maxRuntime effective limit of one run (task's own, else the group's default); null when none
 * @param line line of the {@code task} block in the source, 0 when unknown
 * @param runtime the task's meta, resources and artifacts
 * @param cluster the task's blocks a cluster gives their meaning, in Nomad's API names ({@link ClusterFields})
 */
public record Task(
        String name,
        String driver,
        Map<String, Object> config,
        Map<String, String> env,
        boolean leader,
        Lifecycle lifecycle,
        Duration killTimeout,
        String killSignal,
        Duration shutdownDelay,
        Duration maxRuntime,
        LogConfig logs,
        RestartPolicy restart,
        int line,
        TaskRuntime runtime,
        ClusterFields cluster) {

    public static final Duration DEFAULT_KILL_TIMEOUT = Duration.ofSeconds(5);
    public static final String DEFAULT_KILL_SIGNAL = "SIGINT";

    public Task {
        config = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(config));
        env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
        runtime = runtime == null ? TaskRuntime.NONE : runtime;
        cluster = cluster == null ? ClusterFields.NONE : cluster;
    }

    /** A task without cluster blocks. */
    public Task(String name, String driver, Map<String, Object> config, Map<String, String> env, boolean leader,
            Lifecycle lifecycle, Duration killTimeout, String killSignal, Duration shutdownDelay, Duration maxRuntime,
            LogConfig logs, RestartPolicy restart, int line, TaskRuntime runtime) {
        this(name, driver, config, env, leader, lifecycle, killTimeout, killSignal, shutdownDelay, maxRuntime, logs,
                restart, line, runtime, ClusterFields.NONE);
    }

    /** A task without meta or artifacts, with Nomad's default resources. */
    public Task(String name, String driver, Map<String, Object> config, Map<String, String> env, boolean leader,
            Lifecycle lifecycle, Duration killTimeout, String killSignal, Duration shutdownDelay, Duration maxRuntime,
            LogConfig logs, RestartPolicy restart, int line) {
        this(name, driver, config, env, leader, lifecycle, killTimeout, killSignal, shutdownDelay, maxRuntime, logs,
                restart, line, TaskRuntime.NONE);
    }

    public TaskKind kind() {
        return TaskKind.of(lifecycle);
    }
}
