package io.drover.agent;

import io.drover.core.config.AgentConfig;
import io.drover.core.spec.placement.NodeFeasibility;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * This node as Nomad's scheduler sees a client: a stable id (kept in {@code <data_dir>/node-id}, as Nomad keeps
 * {@code client/client-id}), its name, datacenter, class, node pool, and the fingerprinted attributes Nomad's
 * constraints read ({@code kernel.name}, {@code kernel.version}, {@code cpu.arch}, {@code cpu.numcores},
 * {@code unique.hostname}, {@code os.name}, {@code os.version}; {@code driver.<name>} are added by whoever knows
 * the drivers), and its host volumes (the client's {@code host_volume} blocks, Nomad's {@code Node.HostVolumes}).
 * Read once at agent start (blocking: a file and {@code /etc/os-release}); immutable afterwards.
 */
public record NodeInfo(String id, String name, String datacenter, String nodeClass, String nodePool,
        Map<String, String> attributes, Map<String, String> meta,
        Map<String, io.drover.core.config.HostVolumeConfig> hostVolumes) {
    static final String ID_FILE = "node-id";

    public NodeInfo {
        attributes = Map.copyOf(attributes);
        meta = Map.copyOf(meta);
        hostVolumes = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(hostVolumes));
    }

    /** This node's constraint targets, with {@code attr.driver.<name> = "1"} for each loaded driver. */
    public NodeFeasibility feasibility(java.util.Collection<String> drivers) {
        Map<String, String> attrs = new TreeMap<>(attributes);
        drivers.forEach(d -> attrs.put("driver." + d, "1"));
        Map<String, Boolean> volumes = new TreeMap<>();
        hostVolumes.forEach((k, v) -> volumes.put(k, v.readOnly()));
        return NodeFeasibility.of(attrs, id, name, datacenter, nodeClass, nodePool, meta).withHostVolumes(volumes);
    }

    /**
     * What a task's {@code ${attr.<name>}}, {@code ${node.*}} and {@code ${meta.<key>}} resolve to (Nomad's taskenv
     * node attributes, {@code setNode}): the attributes, {@code node.unique.id}, {@code node.unique.name},
     * {@code node.datacenter}, {@code node.class}, {@code node.pool}, {@code node.region} ("global", the only
     * region), and the node's meta.
     */
    public Map<String, String> interpolationVars() {
        Map<String, String> vars = new TreeMap<>();
        attributes.forEach((k, v) -> vars.put("attr." + k, v));
        meta.forEach((k, v) -> vars.put("meta." + k, v));
        vars.put("node.unique.id", java.util.Objects.toString(id, ""));
        vars.put("node.unique.name", java.util.Objects.toString(name, ""));
        vars.put("node.datacenter", java.util.Objects.toString(datacenter, ""));
        vars.put("node.class", java.util.Objects.toString(nodeClass, ""));
        vars.put("node.pool", java.util.Objects.toString(nodePool, ""));
        vars.put("node.region", "global");
        return vars;
    }

    /** Reads or creates the node id in {@code dataDir} and fingerprints this machine (blocking). */
    public static NodeInfo load(Path dataDir, AgentConfig config) throws IOException {
        String hostname = hostname();
        Map<String, String> attrs = new TreeMap<>();
        attrs.put("kernel.name", System.getProperty("os.name", "linux").toLowerCase(Locale.ROOT));
        attrs.put("kernel.version", kernelVersion());
        attrs.put("cpu.arch", arch());
        attrs.put("cpu.numcores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        attrs.put("unique.hostname", hostname);
        Map<String, String> os = osRelease();
        attrs.put("os.name", os.getOrDefault("ID", "linux"));
        attrs.put("os.version", os.getOrDefault("VERSION_ID", ""));
        attrs.put("nomad.version", "1.9.0");
        io.drover.core.config.NodeConfig n = config.client().node();
        return new NodeInfo(nodeId(dataDir), n.name() != null ? n.name() : hostname, n.datacenter(), n.nodeClass(),
                n.nodePool(), attrs, n.meta(), n.hostVolumes());
    }

    private static String nodeId(Path dataDir) throws IOException {
        Path file = dataDir.resolve(ID_FILE);
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            String id = Files.readString(file, StandardCharsets.US_ASCII).trim();
            try {
                return UUID.fromString(id).toString();
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ": not a node id: \"" + id + "\"");
            }
        }
        String id = UUID.randomUUID().toString();
        Files.writeString(file, id + "\n", StandardCharsets.US_ASCII, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE);
        return id;
    }

    private static String hostname() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            return "localhost";
        }
    }

    /** Nomad's {@code cpu.arch}: Go's GOARCH names. */
    private static String arch() {
        String a = System.getProperty("os.arch", "");
        return switch (a) {
            case "x86_64", "amd64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> a;
        };
    }

    private static String kernelVersion() {
        String v = System.getProperty("os.version", "");
        int dash = v.indexOf('-');
        return dash > 0 ? v.substring(0, dash) : v; // Nomad's kernel.version: "6.1.0", without the build suffix
    }

    private static Map<String, String> osRelease() {
        Map<String, String> out = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"), StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    String v = line.substring(eq + 1).trim();
                    if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
                        v = v.substring(1, v.length() - 1);
                    }
                    out.put(line.substring(0, eq).trim(), v);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no os-release: os.name "linux", os.version ""
        }
        return out;
    }
}
