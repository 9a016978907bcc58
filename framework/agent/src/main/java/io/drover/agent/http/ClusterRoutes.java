package io.drover.agent.http;

import io.drover.agent.NodeInfo;
import io.drover.core.driver.DriverInfo;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * What Nomad's clients ask a cluster, answered for one node that is its own server, leader and only client:
 * {@code GET /v1/agent/self}, {@code /v1/status/leader}, {@code /v1/status/peers}, {@code /v1/regions},
 * {@code /v1/nodes}, {@code /v1/node/:id} (this node, with its fingerprinted attributes), and
 * {@code /v1/client/allocation/:id/stats}. Read-only, any server thread, never blocks.
 */
final class ClusterRoutes {
    private final NodeInfo node;
    private final Supplier<List<DriverInfo>> drivers;
    private final Supplier<String> httpAddr;
    private final AllocLookup lookup;

    /** @param httpAddr this agent's {@code host:port}, known once the server is bound */
    ClusterRoutes(NodeInfo node, Supplier<List<DriverInfo>> drivers, Supplier<String> httpAddr, AllocLookup lookup) {
        this.node = node;
        this.drivers = drivers;
        this.httpAddr = httpAddr;
        this.lookup = lookup;
    }

    void addRoutes(Router router) {
        router.add("GET", "/v1/agent/self", r -> r.respond(200, self()))
                .add("GET", "/v1/status/leader", r -> r.respond(200, rpcAddr()))
                .add("GET", "/v1/status/peers", r -> r.respond(200, List.of(rpcAddr())))
                .add("GET", "/v1/regions", r -> r.respond(200, List.of("global")))
                .add("GET", "/v1/nodes", r -> r.respond(200, nodes(r.query("prefix"))))
                .add("GET", "/v1/node/:id", this::node)
                .add("GET", "/v1/client/allocation/:id/stats", this::stats);
    }

    /** Nomad's leader answer is an RPC address; this node's API address stands for it. */
    private String rpcAddr() {
        return httpAddr.get();
    }

    private Map<String, Object> self() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("Region", "global");
        config.put("Datacenter", node.datacenter());
        config.put("NodeName", node.name());
        config.put("Version", Map.of("Version", "1.9.0", "VersionPrerelease", "", "VersionMetadata", "drover"));
        config.put("Client", Map.of("Enabled", true, "NodeClass", node.nodeClass(), "Meta", node.meta()));
        config.put("Server", Map.of("Enabled", true));
        Map<String, Object> member = new LinkedHashMap<>();
        member.put("Name", node.name() + ".global");
        member.put("Addr", host());
        member.put("Port", port());
        member.put("Tags", Map.of("region", "global", "dc", node.datacenter(), "role", "nomad", "build", "1.9.0"));
        member.put("Status", "alive");
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Config", config);
        out.put("Member", member);
        out.put("Stats", Map.of("client", Map.of("node_id", node.id(), "known_servers", rpcAddr()),
                "nomad", Map.of("leader", "true", "server", "true", "region", "global")));
        return out;
    }

    private String host() {
        String a = httpAddr.get();
        int colon = a.lastIndexOf(':');
        return colon < 0 ? a : a.substring(0, colon);
    }

    private int port() {
        String a = httpAddr.get();
        int colon = a.lastIndexOf(':');
        try {
            return colon < 0 ? 0 : Integer.parseInt(a.substring(colon + 1));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private List<Map<String, Object>> nodes(String prefix) {
        if (prefix != null && !node.id().startsWith(prefix)) {
            return List.of();
        }
        Map<String, Object> stub = header();
        stub.put("Address", host());
        stub.put("Version", "1.9.0");
        return List.of(stub);
    }

    private void node(ApiRequest r) throws Exception {
        String id = r.path("id");
        if (!node.id().startsWith(id)) {
            throw ApiException.notFound("node not found: " + id);
        }
        Map<String, Object> m = header();
        m.put("HTTPAddr", httpAddr.get());
        m.put("TLSEnabled", false);
        m.put("Meta", node.meta());
        m.put("HostVolumes", hostVolumes());
        r.respond(200, m);
    }

    /** Nomad's {@code HostVolumes}: each client host volume by name ({@code ID} is set for dynamic ones only). */
    private Map<String, Object> hostVolumes() {
        Map<String, Object> out = new TreeMap<>();
        node.hostVolumes().forEach((name, v) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Name", v.name());
            m.put("Path", v.path());
            m.put("ReadOnly", v.readOnly());
            m.put("ID", "");
            out.put(name, m);
        });
        return out;
    }

    /** The fields the node's list stub and full record share. */
    private Map<String, Object> header() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ID", node.id());
        m.put("Name", node.name());
        m.put("Datacenter", node.datacenter());
        m.put("NodeClass", node.nodeClass());
        m.put("NodePool", node.nodePool());
        m.put("Attributes", attributes());
        m.put("Drivers", driverInfo());
        m.put("Status", "ready");
        m.put("StatusDescription", "");
        m.put("SchedulingEligibility", "eligible");
        m.put("Drain", false);
        m.put("CreateIndex", 1);
        m.put("ModifyIndex", 1);
        return m;
    }

    /** The fingerprint plus {@code driver.<name> = "1"} for each healthy driver, as Nomad's fingerprinters set. */
    Map<String, String> attributes() {
        Map<String, String> a = new TreeMap<>(node.attributes());
        for (DriverInfo d : drivers.get()) {
            a.put("driver." + d.name(), "1");
        }
        return a;
    }

    private Map<String, Object> driverInfo() {
        Map<String, Object> out = new TreeMap<>();
        for (DriverInfo d : drivers.get()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Attributes", Map.of("driver." + d.name() + ".version", String.valueOf(d.version())));
            m.put("Detected", true);
            m.put("Healthy", true);
            m.put("HealthDescription", "Healthy");
            out.put(d.name(), m);
        }
        return out;
    }

    /**
     * Nomad's {@code AllocResourceUsage} with every task of the allocation. Drover does not sample task resources
     * yet: each value is 0 and {@code Measured} is empty, which is how Nomad says that nothing was measured.
     */
    private void stats(ApiRequest r) throws Exception {
        AllocationState a = lookup.find(r.path("id"));
        long now = System.currentTimeMillis() * 1_000_000L;
        Map<String, Object> tasks = new LinkedHashMap<>();
        for (Map.Entry<String, TaskState> t : a.taskStates().entrySet()) {
            Map<String, Object> usage = new LinkedHashMap<>();
            usage.put("ResourceUsage", usage());
            usage.put("Timestamp", now);
            usage.put("Pids", null);
            tasks.put(t.getKey(), usage);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("ResourceUsage", usage());
        out.put("Tasks", tasks);
        out.put("Timestamp", now);
        r.respond(200, out);
    }

    private static Map<String, Object> usage() {
        Map<String, Object> mem = new LinkedHashMap<>();
        for (String k : List.of("RSS", "Cache", "Swap", "Usage", "MaxUsage", "KernelUsage", "KernelMaxUsage")) {
            mem.put(k, 0);
        }
        mem.put("Measured", List.of());
        Map<String, Object> cpu = new LinkedHashMap<>();
        for (String k : List.of("SystemMode", "UserMode", "TotalTicks", "ThrottledPeriods", "ThrottledTime",
                "Percent")) {
            cpu.put(k, 0);
        }
        cpu.put("Measured", List.of());
        Map<String, Object> u = new LinkedHashMap<>();
        u.put("MemoryStats", mem);
        u.put("CpuStats", cpu);
        u.put("DeviceStats", List.of());
        return u;
    }
}
