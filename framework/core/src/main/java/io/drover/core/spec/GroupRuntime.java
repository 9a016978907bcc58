package io.drover.core.spec;

import java.util.Map;

/**
 * What a group adds at run time: its {@code meta}, its {@code network} and its {@code volume}s by name (in the
 * order written).
 */
public record GroupRuntime(Map<String, String> meta, Network network, Map<String, VolumeRequest> volumes) {
    public static final GroupRuntime NONE = new GroupRuntime(Map.of(), Network.NONE);

    /** A group without volumes. */
    public GroupRuntime(Map<String, String> meta, Network network) {
        this(meta, network, Map.of());
    }

    public GroupRuntime {
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        network = network == null ? Network.NONE : network;
        volumes = volumes == null ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(volumes));
    }
}
