package io.drover.core.spec.placement;

import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.VolumeRequest;
import java.util.Map;

/**
 * Nomad's {@code HostVolumeChecker} for this one node (scheduler/feasible.go), static host volumes only: every host
 * volume of a group must be one of the node's ({@code source}, with {@code per_alloc} followed by the allocation's
 * index, {@code data[0]}); a {@code sticky} request is never met (Nomad: sticky needs a dynamic host volume); a
 * read-write request of a volume the node has read-only is not met. Pure.
 */
final class HostVolumeCheck {
    /** Nomad's filter name ({@code FilterConstraintHostVolumes}), printed as a constraint that excluded the node. */
    static final String FILTER = "missing compatible host volumes";

    private HostVolumeCheck() {}

    /**
     * How many of the group's first {@code count} allocations this node can hold: {@code count} when every volume
     * is met; with {@code per_alloc} the allocations up to the first index whose volume is missing.
     */
    static int placeable(TaskGroup group, int count, Map<String, Boolean> node) {
        for (int index = 0; index < count; index++) {
            for (VolumeRequest v : group.runtime().volumes().values()) {
                if (!met(v, index, node)) {
                    return index;
                }
            }
        }
        return count;
    }

    private static boolean met(VolumeRequest v, int index, Map<String, Boolean> node) {
        if (!VolumeRequest.HOST.equals(v.type())) {
            return true;
        }
        Boolean readOnly = node.get(v.source(index));
        if (readOnly == null || v.sticky()) {
            return false;
        }
        return v.readOnly() || !readOnly;
    }
}
