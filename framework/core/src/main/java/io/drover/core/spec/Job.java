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
 */
public record Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
        String source, JobRuntime runtime) {
    public Job {
        datacenters = List.copyOf(datacenters);
        groups = List.copyOf(groups);
        runtime = runtime == null ? JobRuntime.DEFAULT : runtime;
    }

    /** A job with Nomad's defaults for region and namespace, and no meta. */
    public Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
            String source) {
        this(id, name, type, datacenters, groups, source, JobRuntime.DEFAULT);
    }

    public Optional<TaskGroup> group(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }
}
