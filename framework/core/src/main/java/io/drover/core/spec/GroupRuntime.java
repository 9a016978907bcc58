package io.drover.core.spec;

import java.util.Map;

/** What a group adds at run time: its {@code meta} and its {@code network}. */
public record GroupRuntime(Map<String, String> meta, Network network) {
    public static final GroupRuntime NONE = new GroupRuntime(Map.of(), Network.NONE);

    public GroupRuntime {
        meta = meta == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(meta));
        network = network == null ? Network.NONE : network;
    }
}
