package io.drover.core.config;

import java.util.Map;

/**
 * How this node presents itself to Nomad's scheduling and API: the agent config's top-level {@code name} and
 * {@code datacenter}, and the {@code client} block's {@code node_class}, {@code node_pool} and {@code meta {}}
 * (Nomad's keys). Constraints read them as {@code ${node.unique.name}}, {@code ${node.datacenter}},
 * {@code ${node.class}}, {@code ${node.pool}} and {@code ${meta.KEY}}.
 *
 * @param name null: the machine's host name (Nomad's default)
 */
public record NodeConfig(String name, String datacenter, String nodeClass, String nodePool, Map<String, String> meta) {
    public static final NodeConfig DEFAULTS = new NodeConfig(null, "dc1", "", "default", Map.of());

    public NodeConfig {
        meta = Map.copyOf(meta);
    }
}
