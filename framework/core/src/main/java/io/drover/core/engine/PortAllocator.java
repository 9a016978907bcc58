package io.drover.core.engine;

import io.drover.core.config.PortRange;
import io.drover.core.spec.Network;
import io.drover.core.spec.Port;
import io.drover.core.state.AllocatedResources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The host ports of the agent's allocations (group {@code network} in host mode): static ports as asked, dynamic
 * ones from the client's range. A port is never given to two live allocations, nor given when something on the
 * host already listens on it (checked by binding it once). An allocation's ports are reserved until it ends; a
 * restarted agent reserves again the ports its live allocations recorded.
 *
 * <p>Thread-safe (one monitor, held for the bookkeeping and the bind checks of one allocation: a few system
 * calls). Called on the thread that places an allocation and on the engine thread that sees it end.
 */
final class PortAllocator {
    /** The address tasks' ports are on: the host's loopback, where Drover's one node serves. */
    static final String HOST_IP = "127.0.0.1";

    /** What an allocation got: its resources, or the one-line reason it got none. */
    record Assignment(AllocatedResources resources, String problem) {
        static final Assignment NONE = new Assignment(null, null);
    }

    private final PortRange range;
    private final IntPredicate free;
    private final Map<Integer, String> owners = new HashMap<>();
    private final Map<String, List<Integer>> byAlloc = new HashMap<>();
    private int next;

    PortAllocator(PortRange range) {
        this(range, PortAllocator::bindable);
    }

    /** @param free whether nothing on the host holds the port (tests substitute it) */
    PortAllocator(PortRange range, IntPredicate free) {
        this.range = range;
        this.free = free;
        this.next = range.min();
    }

    /** Gives {@code allocId} the ports of its group's network; nothing is reserved when a port cannot be had. */
    synchronized Assignment allocate(String allocId, Network network) {
        if (!network.mode().equals("host")) { // placement filters it out; this guards a direct submit
            return new Assignment(null, "network: mode \"" + network.mode() + "\": "
                    + io.drover.core.spec.placement.NodeFeasibility.MISSING_NETWORK + " ("
                    + io.drover.core.spec.placement.NodeFeasibility.MISSING_NETWORK_WHY + ")");
        }
        if (network.ports().isEmpty()) {
            return Assignment.NONE;
        }
        List<Integer> taken = new ArrayList<>();
        List<AllocatedResources.PortMapping> mappings = new ArrayList<>();
        List<AllocatedResources.NetworkPort> reserved = new ArrayList<>();
        List<AllocatedResources.NetworkPort> dynamic = new ArrayList<>();
        for (Port p : network.ports()) {
            int value;
            if (p.staticPort() > 0) {
                value = p.staticPort();
                String owner = owners.get(value);
                if (owner != null || taken.contains(value)) {
                    release(taken);
                    return new Assignment(null, "network: static port " + value + " (port \"" + p.label()
                            + "\") is already used by allocation " + (owner != null ? owner : allocId));
                }
                if (!free.test(value)) {
                    release(taken);
                    return new Assignment(null, "network: static port " + value + " (port \"" + p.label()
                            + "\") is already in use on the host");
                }
            } else {
                value = dynamicPort(taken);
                if (value < 0) {
                    release(taken);
                    return new Assignment(null, "network: no free dynamic port left in " + range.min() + "-"
                            + range.max() + " (port \"" + p.label() + "\")");
                }
            }
            taken.add(value);
            owners.put(value, allocId);
            int to = p.to() > 0 ? p.to() : value;
            mappings.add(new AllocatedResources.PortMapping(p.label(), value, to, HOST_IP));
            (p.staticPort() > 0 ? reserved : dynamic).add(new AllocatedResources.NetworkPort(p.label(), value,
                    p.to() > 0 ? p.to() : 0));
        }
        byAlloc.put(allocId, taken);
        AllocatedResources.NetworkResource net = new AllocatedResources.NetworkResource(network.mode(), HOST_IP,
                reserved, dynamic);
        return new Assignment(new AllocatedResources(new AllocatedResources.Shared(mappings, List.of(net))), null);
    }

    /** Reserves again the ports a live allocation recorded (agent restart); what another holds is left to it. */
    synchronized void reserve(String allocId, AllocatedResources resources) {
        List<Integer> taken = new ArrayList<>();
        for (AllocatedResources.PortMapping m : resources.ports()) {
            if (owners.putIfAbsent(m.value(), allocId) == null) {
                taken.add(m.value());
            }
        }
        byAlloc.put(allocId, taken);
    }

    /** The allocation ended: its ports are free again. Idempotent. */
    synchronized void release(String allocId) {
        List<Integer> ports = byAlloc.remove(allocId);
        if (ports != null) {
            release(ports);
        }
    }

    /** Ports held now (for tests and status). */
    synchronized Set<Integer> held() {
        return Set.copyOf(owners.keySet());
    }

    private void release(List<Integer> ports) {
        ports.forEach(owners::remove);
    }

    /** The next free port of the range after the last one given (round robin, so a freed port rests a while). */
    private int dynamicPort(List<Integer> taken) {
        int size = range.max() - range.min() + 1;
        for (int i = 0; i < size; i++) {
            int candidate = next;
            next = next >= range.max() ? range.min() : next + 1;
            if (!owners.containsKey(candidate) && !taken.contains(candidate) && free.test(candidate)) {
                return candidate;
            }
        }
        return -1;
    }

    /** Whether a TCP listener can bind the port on every address now (nothing else on the host holds it). */
    static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(false);
            s.bind(new InetSocketAddress((InetAddress) null, port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
