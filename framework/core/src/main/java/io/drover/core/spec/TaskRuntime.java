package io.drover.core.spec;

import java.util.List;
import java.util.Map;

/**
 * What a task adds at run time: its {@code meta}, {@code resources}, {@code artifact}s, {@code template}s,
 * {@code dispatch_payload} (null when none) and {@code volume_mount}s.
 */
public record TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
        List<Template> templates, DispatchPayload dispatchPayload, List<VolumeMount> volumeMounts) {
    public static final TaskRuntime NONE = new TaskRuntime(Map.of(), Resources.DEFAULT, List.of(), List.of());

    /** A task without {@code dispatch_payload}. */
    public TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
            List<Template> templates) {
        this(meta, resources, artifacts, templates, null, List.of());
    }

    /** A task without {@code volume_mount}s. */
    public TaskRuntime(Map<String, String> meta, Resources resources, List<Artifact> artifacts,
            List<Template> templates, DispatchPayload dispatchPayload) {
        this(meta, resources, artifacts, templates, dispatchPayload, List.of());
    }

    /** This runtime with another {@code dispatch_payload}. */
    public TaskRuntime withDispatchPayload(DispatchPayload payload) {
        return new TaskRuntime(meta, resources, artifacts, templates, payload, volumeMounts);
    }

    public TaskRuntime {
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        resources = resources == null ? Resources.DEFAULT : resources;
        artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        templates = templates == null ? List.of() : List.copyOf(templates);
        volumeMounts = volumeMounts == null ? List.of() : List.copyOf(volumeMounts);
    }
}
