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
 */
public record Job(String id, String name, JobType type, List<String> datacenters, List<TaskGroup> groups,
        String source) {
    public Job {
        datacenters = List.copyOf(datacenters);
        groups = List.copyOf(groups);
    }

    public Optional<TaskGroup> group(String name) {
        return groups.stream().filter(g -> g.name().equals(name)).findFirst();
    }
}
