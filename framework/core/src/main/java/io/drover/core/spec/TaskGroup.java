package io.drover.core.spec;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A task group: {@code count} allocations of the same tasks.
 *
 * @param restart the group's restart policy (Nomad's default for the job type when absent)
 * @param maxRuntime default {@code max_runtime} of the group's tasks; null when unset
 * @param tasks tasks in declaration order, each with its effective settings
 * @param line line of the {@code group} block in the source, 0 when unknown
 * @param runtime the group's meta and network
 * @param cluster the group's blocks a cluster gives their meaning, in Nomad's API names ({@link ClusterFields})
 */
public record TaskGroup(String name, int count, RestartPolicy restart, Duration maxRuntime, List<Task> tasks,
        int line, GroupRuntime runtime, ClusterFields cluster) {
    public TaskGroup {
        tasks = List.copyOf(tasks);
        runtime = runtime == null ? GroupRuntime.NONE : runtime;
        cluster = cluster == null ? ClusterFields.NONE : cluster;
    }

    /** A group without cluster blocks. */
    public TaskGroup(String name, int count, RestartPolicy restart, Duration maxRuntime, List<Task> tasks, int line,
            GroupRuntime runtime) {
        this(name, count, restart, maxRuntime, tasks, line, runtime, ClusterFields.NONE);
    }

    /** The same group with {@code n} allocations. */
    public TaskGroup withCount(int n) {
        return new TaskGroup(name, n, restart, maxRuntime, tasks, line, runtime, cluster);
    }

    /** A group without meta or network. */
    public TaskGroup(String name, int count, RestartPolicy restart, Duration maxRuntime, List<Task> tasks, int line) {
        this(name, count, restart, maxRuntime, tasks, line, GroupRuntime.NONE);
    }

    public Optional<Task> task(String name) {
        return tasks.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
