package io.drover.core.spec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The blocks of a job, group or task that a cluster gives their meaning ({@code update}, {@code reschedule},
 * {@code migrate}, {@code scaling}, {@code ephemeral_disk}, {@code affinity}, {@code spread}, {@code all_at_once},
 * {@code node_pool}, {@code identity}, ...), kept as Nomad's API spells them ({@code "Update": {"MaxParallel": 1,
 * "MinHealthyTime": 10000000000}}, {@code "Affinities": [...]}, durations in nanoseconds), so that the job's API
 * JSON returns them and a job read back from that JSON keeps them. One node gives most of them no meaning; what
 * it does with each is in docs/jobs.md. Immutable; values are String, Long, Integer, Boolean, List and Map.
 *
 * @param fields Nomad's field name to its value, in the order written
 */
public record ClusterFields(Map<String, Object> fields) {
    public static final ClusterFields NONE = new ClusterFields(Map.of());

    public ClusterFields {
        fields = fields == null || fields.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new LinkedHashMap<>(fields)); // null: recorded before session 9
    }

    /** The value of Nomad's field {@code name}, null when not set. */
    public Object get(String name) {
        return fields.get(name);
    }
}
