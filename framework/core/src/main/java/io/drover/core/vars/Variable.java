package io.drover.core.vars;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Nomad variable, in Nomad's JSON shape ({@code Namespace}, {@code Path}, {@code Items}, the indexes and the
 * unix-nanosecond times). Immutable value; {@code items} is a sorted copy.
 */
public record Variable(@JsonProperty("Namespace") String namespace, @JsonProperty("Path") String path,
        @JsonProperty("Items") Map<String, String> items, @JsonProperty("CreateIndex") long createIndex,
        @JsonProperty("ModifyIndex") long modifyIndex, @JsonProperty("CreateTime") long createTime,
        @JsonProperty("ModifyTime") long modifyTime) {
    public Variable {
        namespace = namespace == null || namespace.isEmpty() ? "default" : namespace;
        items = items == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(items));
    }

    /** The metadata Nomad lists ({@code VariableMetadata}): everything but the items. */
    public Map<String, Object> metadata() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("Namespace", namespace);
        m.put("Path", path);
        m.put("CreateIndex", createIndex);
        m.put("ModifyIndex", modifyIndex);
        m.put("CreateTime", createTime);
        m.put("ModifyTime", modifyTime);
        return m;
    }
}
