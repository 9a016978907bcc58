package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * What an allocation was given, in the shape of Nomad's {@code AllocatedResources}: only {@code Shared} (the
 * group's network) exists on Drover. Immutable; persisted with the allocation, so an agent restart keeps the
 * ports of a live allocation reserved.
 */
public record AllocatedResources(@JsonProperty("Shared") Shared shared) {
    public static final AllocatedResources NONE = new AllocatedResources(new Shared(List.of(), List.of()));

    public AllocatedResources {
        shared = shared == null ? new Shared(List.of(), List.of()) : shared;
    }

    /** Every host port of the allocation, static and dynamic. */
    public List<PortMapping> ports() {
        return shared.ports();
    }

    public boolean empty() {
        return shared.ports().isEmpty() && shared.networks().isEmpty();
    }

    /** Nomad's {@code AllocatedSharedResources}: {@code Ports} and {@code Networks}. */
    public record Shared(@JsonProperty("Ports") List<PortMapping> ports,
            @JsonProperty("Networks") List<NetworkResource> networks) {
        public Shared {
            ports = ports == null ? List.of() : List.copyOf(ports);
            networks = networks == null ? List.of() : List.copyOf(networks);
        }
    }

    /** Nomad's {@code AllocatedPortMapping}: {@code To} is the port inside; in host mode the host port or 0. */
    public record PortMapping(@JsonProperty("Label") String label, @JsonProperty("Value") int value,
            @JsonProperty("To") int to, @JsonProperty("HostIP") String hostIp) {}

    /** Nomad's {@code NetworkResource} of a group network in host mode. */
    public record NetworkResource(@JsonProperty("Mode") String mode, @JsonProperty("IP") String ip,
            @JsonProperty("ReservedPorts") List<NetworkPort> reservedPorts,
            @JsonProperty("DynamicPorts") List<NetworkPort> dynamicPorts) {
        public NetworkResource {
            reservedPorts = reservedPorts == null ? List.of() : List.copyOf(reservedPorts);
            dynamicPorts = dynamicPorts == null ? List.of() : List.copyOf(dynamicPorts);
        }
    }

    /** Nomad's {@code Port}. */
    public record NetworkPort(@JsonProperty("Label") String label, @JsonProperty("Value") int value,
            @JsonProperty("To") int to) {}
}
