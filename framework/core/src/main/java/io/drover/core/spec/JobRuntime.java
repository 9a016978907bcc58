package io.drover.core.spec;

import java.util.Map;

/**
 * What a job tells its tasks at run time: {@code region}, {@code namespace} (Nomad's defaults {@code global},
 * {@code default}), {@code meta}, and the parent of a dispatched or periodic child ({@code ""} when none).
 */
public record JobRuntime(String region, String namespace, Map<String, String> meta, String parentId) {
    public static final JobRuntime DEFAULT = new JobRuntime("global", "default", Map.of(), "");

    public JobRuntime {
        region = region == null ? "global" : region;
        namespace = namespace == null ? "default" : namespace;
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        parentId = parentId == null ? "" : parentId;
    }
}
