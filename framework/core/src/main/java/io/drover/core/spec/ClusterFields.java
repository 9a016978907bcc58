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
        fields = fields == null || fields.isEmpty() ? Map.of() : normal(fields); // null: recorded before session 9
    }

    /**
     * An unmodifiable deep copy with every whole number a Long, as the parser and the store (USE_LONG_FOR_INTS)
     * make them: a job must equal itself however it was built (a re-registration of the same job is no new
     * version), also when a caller passes Integers.
     */
    @SuppressWarnings("unchecked")
    private static <T> T normal(T value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return (T) Long.valueOf(((Number) value).longValue());
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), normal(v)));
            return (T) Collections.unmodifiableMap(out);
        }
        if (value instanceof java.util.List<?> l) {
            return (T) Collections.unmodifiableList(new java.util.ArrayList<>(l.stream().map(ClusterFields::normal)
                    .toList()));
        }
        return value;
    }

    /** The value of Nomad's field {@code name}, null when not set. */
    public Object get(String name) {
        return fields.get(name);
    }
}
