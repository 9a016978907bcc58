package io.drover.core.config;

import java.util.Map;

/**
 * How this node presents itself to Nomad's scheduling and API: the agent config's top-level {@code name} and
 * {@code datacenter}, and the {@code client} block's {@code node_class}, {@code node_pool} and {@code meta {}}
 * (Nomad's keys). Constraints read them as {@code ${node.unique.name}}, {@code ${node.datacenter}},
 * {@code ${node.class}}, {@code ${node.pool}} and {@code ${meta.KEY}}. And the {@code client} block's
 * {@code host_volume "NAME"} blocks, by name in the order written: the node's host volumes (Nomad's
 * {@code Node.HostVolumes}), which placement checks and the exec driver mounts.
 *
 * @param name null: the machine's host name (Nomad's default)
 */
public record NodeConfig(String name, String datacenter, String nodeClass, String nodePool, Map<String, String> meta,
        Map<String, HostVolumeConfig> hostVolumes) {
    public static final NodeConfig DEFAULTS = new NodeConfig(null, "dc1", "", "default", Map.of());

    /** A node without host volumes. */
    public NodeConfig(String name, String datacenter, String nodeClass, String nodePool, Map<String, String> meta) {
        this(name, datacenter, nodeClass, nodePool, meta, Map.of());
    }

    public NodeConfig {
        meta = Map.copyOf(meta);
        hostVolumes = hostVolumes == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(hostVolumes));
    }
}
