package io.drover.core.spec;

import java.util.List;

/** A group's {@code network} block. Only Nomad's {@code host} mode exists on one node without CNI. */
public record Network(String mode, List<Port> ports) {
    public static final Network NONE = new Network("host", List.of());

    public Network {
        ports = List.copyOf(ports);
    }
}
