package io.drover.core.spec;

import java.util.List;

/**
 * A task's {@code volume_mount { ... }} block (Nomad's {@code VolumeMount}): where a group {@code volume} appears
 * inside the task.
 *
 * @param volume the group volume's name
 * @param destination the path inside the task (relative paths are under the task directory, Nomad's
 *     {@code NOMAD_TASK_DIR}'s parent); checked to stay inside it
 * @param readOnly the task asks a read-only mount (read-only when this, the group's volume or the client's
 *     host volume says so)
 * @param propagationMode {@code private} (the default), {@code host-to-task} or {@code bidirectional}
 * @param selinuxLabel "", {@code z} or {@code Z} (kept; Drover applies no SELinux label)
 */
public record VolumeMount(String volume, String destination, boolean readOnly, String propagationMode,
        String selinuxLabel) {
    public static final String PRIVATE = "private";
    /** Nomad's propagation modes. */
    public static final List<String> PROPAGATION_MODES = List.of(PRIVATE, "host-to-task", "bidirectional");

    public VolumeMount {
        propagationMode = propagationMode == null || propagationMode.isEmpty() ? PRIVATE : propagationMode;
        selinuxLabel = selinuxLabel == null ? "" : selinuxLabel;
    }
}
