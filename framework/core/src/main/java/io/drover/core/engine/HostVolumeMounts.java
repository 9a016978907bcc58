package io.drover.core.engine;

import io.drover.core.config.HostVolumeConfig;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.VolumeMount;
import io.drover.core.spec.VolumeRequest;
import io.drover.driver.api.MountConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What Nomad's task runner volume hook makes of a task's {@code volume_mount}s ({@code validateHostVolumes},
 * {@code hostVolumeMountConfigurations}): every host volume of the group must still be one of the node's (a
 * client restarted without one), then each mount of a host volume becomes a {@link MountConfig}, read-only when
 * the client volume, the group's volume or the mount says so. Pure.
 */
final class HostVolumeMounts {
    /** The mounts of one run, or Nomad's reason there are none. */
    record Result(List<MountConfig> mounts, String problem) {}

    private HostVolumeMounts() {}

    /**
     * @param allocIndex the allocation's index ({@code per_alloc} volumes are {@code source[index]})
     * @param node the node's host volumes by name
     * @param interpolate applies the run's {@code ${...}} to a destination
     */
    static Result resolve(TaskGroup group, int allocIndex, Map<String, HostVolumeConfig> node, Task task,
            java.util.function.UnaryOperator<String> interpolate) {
        List<VolumeMount> wanted = task.runtime().volumeMounts();
        if (wanted.isEmpty()) {
            return new Result(List.of(), null);
        }
        Map<String, VolumeRequest> volumes = group.runtime().volumes();
        TreeSet<String> missing = new TreeSet<>();
        for (VolumeRequest v : volumes.values()) {
            if (VolumeRequest.HOST.equals(v.type()) && !node.containsKey(v.source(allocIndex))) {
                missing.add(v.source(allocIndex));
            }
        }
        if (!missing.isEmpty()) {
            return new Result(List.of(), "host volume validation error: missing " + String.join(", missing ",
                    missing));
        }
        List<MountConfig> out = new ArrayList<>();
        for (VolumeMount m : wanted) {
            VolumeRequest v = volumes.get(m.volume());
            if (v == null || !VolumeRequest.HOST.equals(v.type())) {
                continue; // not a host volume (the parser refuses the rest)
            }
            HostVolumeConfig hv = node.get(v.source(allocIndex));
            out.add(new MountConfig(hv.name(), hv.path(), interpolate.apply(m.destination()),
                    hv.readOnly() || v.readOnly() || m.readOnly(), m.propagationMode()));
        }
        return new Result(out, null);
    }
}
