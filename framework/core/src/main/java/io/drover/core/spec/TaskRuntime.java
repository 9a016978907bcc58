package io.drover.core.spec;

import java.util.List;
import java.util.Map;

/** What a task adds at run time: its {@code meta}, {@code resources}, {@code artifact}s and {@code template}s. */
public record TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
        List<Template> templates) {
    public static final TaskRuntime NONE = new TaskRuntime(Map.of(), Resources.DEFAULT, List.of(), List.of());

    public TaskRuntime {
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        resources = resources == null ? Resources.DEFAULT : resources;
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        templates = templates == null ? List.of() : List.copyOf(templates);
    }
}
