package io.drover.core.spec.parse;

import io.drover.core.spec.JobType;
import io.drover.core.spec.VolumeMount;
import io.drover.core.spec.VolumeRequest;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps a group's {@code volume "NAME" { type = "host", source, read_only, per_alloc, ... }} blocks and a task's
 * {@code volume_mount { volume, destination, read_only, propagation_mode, selinux_label }} blocks, with Nomad's
 * checks and words ({@code VolumeRequest.Validate}, {@code VolumeMount.Validate}, {@code Task.Validate}). A CSI
 * volume is refused by {@link ClusterBlocks} (needs CSI) and left out here. A mount's destination must stay inside
 * the task: a path that climbs out of it with {@code ..} is refused. Pure; every problem is recorded.
 */
final class VolumeMapper {
    static final List<String> VOLUME_KEYS = List.of("type", "source", "read_only", "sticky", "per_alloc",
            "access_mode", "attachment_mode", "mount_options");
    static final List<String> MOUNT_KEYS = List.of("volume", "destination", "read_only", "propagation_mode",
            "selinux_label");
    /** Nomad's access modes a host volume may have ({@code HostVolumeAccessMode*}). */
    private static final List<String> HOST_ACCESS_MODES = List.of("", "single-node-reader-only",
            "single-node-writer", "single-node-single-writer", "single-node-multi-writer");

    private VolumeMapper() {}

    /** The names of the group's {@code volume} blocks, CSI ones included (a mount of one is not "undefined"). */
    static Set<String> names(MapReader group) {
        Set<String> out = new java.util.LinkedHashSet<>();
        for (Field f : group.all("volume")) {
            if (f.value() instanceof Node.Mapping m && m.labels().size() == 1) {
                out.add(m.labels().get(0));
            }
        }
        return out;
    }

    /** The group's host volumes by name; a CSI one is left out (refused elsewhere). */
    static Map<String, VolumeRequest> group(MapReader group, JobType type, Problems p) {
        Map<String, VolumeRequest> out = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (Field f : group.all("volume")) {
            String where = MapReader.join(group.path(), f.name());
            if (!(f.value() instanceof Node.Mapping m) || m.labels().size() != 1) {
                p.add(new TreeProblem(f.line(), where, "takes exactly one label, the volume's name: volume \"data\" "
                        + "{ type = \"host\", source = \"data\" }"));
                continue;
            }
            String name = m.labels().get(0);
            String path = where + " \"" + name + "\"";
            Integer first = lines.putIfAbsent(name, f.line());
            if (first != null) {
                p.add(new TreeProblem(f.line(), path, "duplicate volume name (first at line " + first + ")"));
                continue;
            }
            MapReader r = MapReader.open(m, path, group.vocabulary(), VOLUME_KEYS, List.of(), p);
            String kind = p.read(() -> r.string("type", ""), "");
            if (kind.equals("csi")) {
                continue; // ClusterBlocks: needs CSI
            }
            VolumeRequest v = volume(r, name, kind, type, p);
            if (v != null) {
                out.put(name, v);
            }
        }
        return out;
    }

    private static VolumeRequest volume(MapReader r, String name, String kind, JobType type, Problems p) {
        int before = p.size();
        if (!kind.equals(VolumeRequest.HOST)) {
            p.add(r.problem("type", "volume has unrecognized type \"" + kind + "\" (host or csi; Drover has host"
                    + " volumes only)"));
        }
        String source = p.read(() -> r.string("source", ""), "");
        if (source.isEmpty()) {
            p.add(r.problem("source", "volume has an empty source (the name of a client host_volume)"));
        }
        boolean readOnly = p.read(() -> r.bool("read_only", false), false);
        boolean sticky = p.read(() -> r.bool("sticky", false), false);
        boolean perAlloc = p.read(() -> r.bool("per_alloc", false), false);
        String access = p.read(() -> r.string("access_mode", ""), "");
        String attachment = p.read(() -> r.string("attachment_mode", ""), "");
        if (perAlloc && type.perNode()) {
            p.add(r.problem("per_alloc", "volume cannot be per_alloc for system or sysbatch jobs"));
        }
        if (perAlloc && sticky) {
            p.add(r.problem("per_alloc", "volume cannot be per_alloc and sticky at the same time"));
        }
        if (r.has("mount_options")) {
            p.add(r.problem("mount_options", "host volumes cannot have mount options"));
        }
        if (!HOST_ACCESS_MODES.contains(access)) {
            p.add(r.problem("access_mode", "host volumes cannot be mounted with " + access + " access mode"));
        } else if (access.equals("single-node-reader-only") && !readOnly) {
            p.add(r.problem("access_mode", access + " volumes must be read-only"));
        }
        return p.size() != before ? null
                : new VolumeRequest(name, kind, source, readOnly, perAlloc, sticky, access, attachment);
    }

    /**
     * A task's {@code volume_mount} blocks.
     *
     * @param volumes the names of the group's volumes (null for a task directly in the job: it has none)
     */
    static List<VolumeMount> mounts(MapReader task, Set<String> volumes, Problems p) {
        List<VolumeMount> out = new ArrayList<>();
        int idx = 0;
        for (Field f : task.all("volume_mount")) {
            int at = idx++;
            String where = MapReader.join(task.path(), f.name());
            if (!(f.value() instanceof Node.Mapping m) || !m.labels().isEmpty()) {
                p.add(new TreeProblem(f.line(), where, "must be a block without a label: volume_mount { volume = "
                        + "\"data\", destination = \"/data\" }"));
                continue;
            }
            MapReader r = MapReader.open(m, where, task.vocabulary(), MOUNT_KEYS, List.of(), p);
            VolumeMount vm = mount(r, at, volumes == null ? Set.of() : volumes, p);
            if (vm != null) {
                out.add(vm);
            }
        }
        return out;
    }

    private static VolumeMount mount(MapReader r, int idx, Set<String> volumes, Problems p) {
        int before = p.size();
        String volume = p.read(() -> r.string("volume", ""), "");
        if (volume.isEmpty()) {
            p.add(r.problem("volume", "volume mount references an empty volume"));
        } else if (!volumes.contains(volume)) {
            p.add(r.problem("volume", "Volume Mount (" + idx + ") references undefined volume " + volume
                    + (volumes.isEmpty() ? " (the group has no volume block)"
                            : " (the group's volumes: " + String.join(", ", volumes) + ")")));
        }
        String destination = p.read(() -> r.string("destination", ""), "");
        if (!r.has("destination") || destination.isEmpty()) {
            p.add(r.problem("destination", "is required: the path inside the task the volume appears at "
                    + "(e.g. destination = \"/data\")"));
        } else {
            String bad = destinationProblem(destination);
            if (bad != null) {
                p.add(r.problem("destination", bad));
            }
        }
        boolean readOnly = p.read(() -> r.bool("read_only", false), false);
        String mode = p.read(() -> r.string("propagation_mode", VolumeMount.PRIVATE), VolumeMount.PRIVATE);
        if (!mode.isEmpty() && !VolumeMount.PROPAGATION_MODES.contains(mode)) {
            p.add(r.problem("propagation_mode", "volume mount has an invalid propagation mode: \"" + mode
                    + "\" (allowed: " + String.join(", ", VolumeMount.PROPAGATION_MODES) + ")"));
        }
        String label = p.read(() -> r.string("selinux_label", ""), "");
        if (!List.of("", "z", "Z").contains(label)) {
            p.add(r.problem("selinux_label", "volume mount has an invalid SELinux label: \"" + label
                    + "\" (allowed: z, Z)"));
        }
        return p.size() != before ? null : new VolumeMount(volume, destination, readOnly, mode, label);
    }

    /**
     * Why a mount destination cannot be used, null when it can: a NUL, or {@code ..} that climbs above the task's
     * root. A destination with {@code ${...}} is checked once interpolated, at run time.
     */
    static String destinationProblem(String destination) {
        if (destination.indexOf('\0') >= 0) {
            return "must not contain a NUL character";
        }
        if (destination.contains("${")) {
            return null;
        }
        int depth = 0;
        for (String part : destination.split("/")) {
            if (part.equals("..")) {
                depth--;
                if (depth < 0) {
                    return "volume_mount destination path \"" + destination + "\" escapes the task directory (it"
                            + " must stay inside the task, e.g. \"/data\")";
                }
            } else if (!part.isEmpty() && !part.equals(".")) {
                depth++;
            }
        }
        if (depth == 0) {
            return "volume_mount destination \"" + destination + "\" is the task's root; it must name a directory "
                    + "inside the task (e.g. \"/data\")";
        }
        return null;
    }
}
