package io.drover.core.spec;

import java.util.List;
import java.util.Map;

/**
 * What a task adds at run time: its {@code meta}, {@code resources}, {@code artifact}s, {@code template}s and
 * {@code dispatch_payload} (null when none).
 */
public record TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
        List<Template> templates, DispatchPayload dispatchPayload) {
    public static final TaskRuntime NONE = new TaskRuntime(Map.of(), Resources.DEFAULT, List.of(), List.of());

    /** A task without {@code dispatch_payload}. */
    public TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
            List<Template> templates) {
        this(meta, resources, artifacts, templates, null);
    }

    public TaskRuntime {
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        resources = resources == null ? Resources.DEFAULT : resources;
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        templates = templates == null ? List.of() : List.copyOf(templates);
    }
}
