package io.drover.core.spec;

import java.util.List;
import java.util.Optional;

/**
 * A parsed, validated job. Immutable.
 *
 * @param id the job's id (the label of {@code job "id"})
 * @param name the job's name (defaults to the id)
 * @param type batch or service
 * @param datacenters informational, as in Nomad
 * @param groups task groups in declaration order
 * @param source where the job was read from (file name), for messages
 * @param runtime region, namespace, meta: what the job tells its tasks at run time
 * @param constraints every {@code constraint} of the job, its groups and tasks, in file order (Nomad's scheduler
 *     decides them; on one node they decide whether a group is placed here)
 * @param priority Nomad's {@code priority}, 1 to 100 (default 50): the priority of the job's evaluations
 * @param cluster the job's blocks a cluster gives their meaning, in Nomad's API names ({@link ClusterFields})
 * @param launch {@code periodic} / {@code parameterized}: whether the job is a parent that launches children
 */
public record Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
        String source, JobRuntime runtime, List<Constraint> constraints, int priority, ClusterFields cluster,
        JobLaunch launch) {
    /** Nomad's default job priority. */
    public static final int DEFAULT_PRIORITY = 50;

    public Job {
        datacenters = List.copyOf(datacenters);
        groups = List.copyOf(groups);
        runtime = runtime == null ? JobRuntime.DEFAULT : runtime;
        constraints = constraints == null ? List.of() : List.copyOf(constraints); // null: recorded before issue 15
        priority = priority == 0 ? DEFAULT_PRIORITY : priority; // 0: recorded before session 9
        cluster = cluster == null ? ClusterFields.NONE : cluster;
        launch = launch == null ? JobLaunch.NONE : launch; // null: recorded before periodic jobs
    }

    /** A job launched as it is (neither periodic nor parameterized). */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source, JobRuntime runtime, List<Constraint> constraints, int priority, ClusterFields cluster) {
        this(id, name, type, datacenters, groups, source, runtime, constraints, priority, cluster, JobLaunch.NONE);
    }

    /** A job with Nomad's default priority and no cluster blocks. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source, JobRuntime runtime, List<Constraint> constraints, JobLaunch launch) {
        this(id, name, type, datacenters, groups, source, runtime, constraints, DEFAULT_PRIORITY, ClusterFields.NONE,
                launch);
    }

    /** A job with Nomad's default priority, no cluster blocks, launched as it is. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source, JobRuntime runtime, List<Constraint> constraints) {
        this(id, name, type, datacenters, groups, source, runtime, constraints, DEFAULT_PRIORITY, ClusterFields.NONE,
                JobLaunch.NONE);
    }

    /** A job with Nomad's defaults for region and namespace, no meta and no constraints. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source) {
        this(id, name, type, datacenters, groups, source, JobRuntime.DEFAULT, List.of());
    }

    /** A job without constraints. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source, JobRuntime runtime) {
        this(id, name, type, datacenters, groups, source, runtime, List.of());
    }

    /** A job with Nomad's defaults for region and namespace, and no meta. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source, List<Constraint> constraints) {
        this(id, name, type, datacenters, groups, source, JobRuntime.DEFAULT, constraints);
    }

    /** The same job with only {@code kept} of its groups (those this node can place). */
    public Job withGroups(List<TaskGroup> kept) {
        return new Job(id, name, type, datacenters, kept, source, runtime, constraints, priority, cluster, launch);
    }

    /** The group named {@code name}; a loop, not a stream: GC placement passes ask it per live allocation. */
    public Optional<TaskGroup> group(String name) {
        for (TaskGroup g : groups) {
            if (g.name().equals(name)) {
                return Optional.of(g);
            }
        }
        return Optional.empty();
    }
}
