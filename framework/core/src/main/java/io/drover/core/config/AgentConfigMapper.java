package io.drover.core.config;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.spec.parse.tree.Vocabulary;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds and validates an {@link AgentConfig} from a config file's neutral tree (contract §4): the schema,
 * defaults and checks of the agent config live here. The first problem found is thrown. Not quite pure: a
 * {@code plugin_dir} the file sets must exist, and a {@code bind_addr} that is a host name must resolve (both are
 * config errors, named with file and line, rather than an agent that starts with no drivers or fails to bind).
 */
final class AgentConfigMapper {
    private static final List<String> ROOT_KEYS =
            List.of("data_dir", "plugin_dir", "log_level", "bind_addr", "ports", "client", "acl", "http", "name",
                    "datacenter");
    private static final List<String> CLIENT_KEYS = List.of("gc_interval", "gc_max_allocs",
            "gc_disk_usage_threshold", "gc_inode_usage_threshold", "gc_parallel_destroys", "gc_kill_policy",
            "max_kill_timeout", "record_retention", "driver_start_timeout", "max_tasks_per_job", "max_tasks",
            "max_tasks_per_group", "min_dynamic_port", "max_dynamic_port", "node_class", "node_pool", "meta");
    private static final List<String> HTTP_KEYS =
            List.of("allowed_hosts", "max_conns", "header_timeout", "idle_timeout",
                    "max_conns_per_client");
    private static final List<String> LOG_LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

    private AgentConfigMapper() {}

    /**
     * @param file the config file's name, for {@link ConfigSource}
     * @param baseDir directory that relative paths are resolved against (the config file's)
     */
    static AgentConfig map(String file, Node.Mapping root, Path baseDir) throws TreeProblem {
        AgentConfig d = AgentConfig.defaults();
        MapReader r = MapReader.open(root, "", Vocabulary.AS_WRITTEN, ROOT_KEYS, List.of("plugin"));
        Path dataDir = path(r, "data_dir", baseDir);
        Path pluginDir = path(r, "plugin_dir", baseDir);
        if (pluginDir != null && !Files.isDirectory(pluginDir)) {
            throw r.problem("plugin_dir", Files.exists(pluginDir) ? pluginDir + " is not a directory"
                    : pluginDir + " does not exist");
        }
        String level = r.string("log_level", d.logLevel());
        String logLevel = level.toUpperCase(Locale.ROOT);
        if (!LOG_LEVELS.contains(logLevel)) {
            throw r.problem("log_level", "must be one of " + String.join(", ", LOG_LEVELS) + ", found \"" + level + "\"");
        }
        String bindAddr = r.string("bind_addr", d.bindAddr());
        if (bindAddr.isBlank()) {
            throw r.problem("bind_addr", "must not be empty");
        }
        String badAddr = BindAddress.problem(bindAddr);
        if (badAddr != null) {
            throw r.problem("bind_addr", badAddr);
        }
        // http = 0: any free port, chosen at start (the agent prints it in its banner); for tests and scripts.
        MapReader ports = r.child("ports", List.of("http"), List.of());
        int http = ports == null ? d.httpPort() : (int) ports.integer("http", d.httpPort(), 0, 65535);
        ClientConfig client = client(r.child("client", CLIENT_KEYS, List.of(HostVolumes.KEY)), d.client());
        client = withNode(r, r.child("client", CLIENT_KEYS, List.of(HostVolumes.KEY)), client);
        MapReader acl = r.child("acl", List.of("token"), List.of());
        String token = acl == null ? null : acl.string("token", null);
        String badToken = AclToken.problem(token);
        if (badToken != null) {
            throw acl.problem("token", badToken);
        }
        return new AgentConfig(dataDir, pluginDir, logLevel, bindAddr, http, client, plugins(r), token,
                new ConfigSource(file, lines(root)), httpBlock(r.child("http", HTTP_KEYS, List.of())));
    }

    /**
     * The line of every key the (already validated) file sets, by key path: root keys, the keys of the
     * {@code ports}, {@code client} and {@code acl} blocks, each {@code plugin "NAME"} block and the keys of its
     * {@code config} block.
     */
    private static Map<String, Integer> lines(Node.Mapping root) {
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (Field f : root.fields()) {
            if ("plugin".equals(f.key()) && f.value() instanceof Node.Mapping block && block.labels().size() == 1) {
                String path = "plugin \"" + block.labels().get(0) + "\"";
                lines.put(path, f.line());
                for (Field c : block.fields()) {
                    lines.put(path + " > config", c.line());
                    if (c.value() instanceof Node.Mapping config) {
                        config.fields().forEach(k -> lines.putIfAbsent(path + " > config > " + k.name(), k.line()));
                    }
                }
            } else if (f.key() != null) {
                lines.putIfAbsent(f.key(), f.line());
                if (f.value() instanceof Node.Mapping block) {
                    block.fields().forEach(k -> lines.putIfAbsent(f.key() + " > " + (k.key() != null ? k.key()
                            : k.name()), k.line()));
                }
            }
        }
        return lines;
    }

    private static Path path(MapReader r, String key, Path baseDir) throws TreeProblem {
        String text = r.string(key, null);
        if (text == null) {
            return null;
        }
        if (text.isBlank()) {
            throw r.problem(key, "must not be empty");
        }
        try {
            return baseDir.resolve(Path.of(text)).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw r.problem(key, "not a valid path: " + e.getReason());
        }
    }

    private static HttpConfig httpBlock(MapReader r) throws TreeProblem {
        if (r == null) {
            return HttpConfig.defaults();
        }
        List<String> hosts = r.strings("allowed_hosts");
        hosts = hosts == null ? List.of() : hosts;
        for (String h : hosts) {
            String name = h.startsWith("[") ? h : h.replaceFirst(":[0-9]{1,5}$", "");
            String bad = name.isBlank() ? "must not be empty"
                    : name.startsWith("[") ? (name.matches("\\[[0-9A-Fa-f:.]+](:[0-9]{1,5})?") ? null : "not a host")
                    : BindAddress.syntaxProblem(name);
            if (bad != null) {
                throw r.problem("allowed_hosts", "\"" + h + "\" is not a host name or address (with an optional "
                        + ":port)");
            }
        }
        int maxConns = (int) r.integer("max_conns", HttpConfig.DEFAULT_MAX_CONNS, 16, 65536);
        Duration header = wholeSeconds(r, "header_timeout", HttpConfig.DEFAULT_HEADER_TIMEOUT);
        Duration idle = wholeSeconds(r, "idle_timeout", HttpConfig.DEFAULT_IDLE_TIMEOUT);
        int perClient = (int) r.integer("max_conns_per_client", HttpConfig.DEFAULT_MAX_CONNS_PER_CLIENT, 0, 65536);
        return new HttpConfig(hosts, maxConns, header, idle, perClient);
    }

    /** A duration the JDK's HTTP server takes in whole seconds: at least 1s. */
    private static Duration wholeSeconds(MapReader r, String key, Duration dflt) throws TreeProblem {
        Duration d = r.duration(key, dflt, true);
        if (d.toSeconds() < 1) {
            throw r.problem(key, "must be at least 1s, found " + d.toMillis() + "ms");
        }
        return d;
    }

    private static ClientConfig client(MapReader r, ClientConfig d) throws TreeProblem {
        if (r == null) {
            return d;
        }
        Duration gcInterval = r.duration("gc_interval", d.gcInterval(), true);
        int maxAllocs = (int) r.integer("gc_max_allocs", d.gcMaxAllocs(), 1, Integer.MAX_VALUE);
        int disk = (int) r.integer("gc_disk_usage_threshold", d.gcDiskUsageThreshold(), 0, 100);
        int inode = (int) r.integer("gc_inode_usage_threshold", d.gcInodeUsageThreshold(), 0, 100);
        int parallel = (int) r.integer("gc_parallel_destroys", d.gcParallelDestroys(), 1, Integer.MAX_VALUE);
        String policyName = r.string("gc_kill_policy", d.gcKillPolicy().wireName());
        GcKillPolicy policy = GcKillPolicy.fromWire(policyName).orElseThrow(() -> r.problem("gc_kill_policy",
                "must be preserve_states or kill_poststop, found \"" + policyName + "\""));
        Duration maxKill = r.duration("max_kill_timeout", d.maxKillTimeout(), true);
        Duration retention = r.duration("record_retention", d.recordRetention(), true);
        Duration startTimeout = r.duration("driver_start_timeout", d.driverStartTimeout(), true);
        int perJob = (int) r.integer("max_tasks_per_job", d.taskLimits().maxTasksPerJob(), 1, Integer.MAX_VALUE);
        int total = (int) r.integer("max_tasks", d.taskLimits().maxTasks(), 1, Integer.MAX_VALUE);
        int perGroup = (int) r.integer("max_tasks_per_group", d.taskLimits().maxTasksPerGroup(), 1,
                Integer.MAX_VALUE);
        if (perJob > total) {
            throw r.problem("max_tasks_per_job", "must not exceed max_tasks (" + perJob + " > " + total + ")");
        }
        int minPort = (int) r.integer("min_dynamic_port", d.dynamicPorts().min(), 1, 65535);
        int maxPort = (int) r.integer("max_dynamic_port", d.dynamicPorts().max(), 1, 65535);
        if (minPort > maxPort) {
            throw r.problem("min_dynamic_port", "must not exceed max_dynamic_port (" + minPort + " > " + maxPort
                    + ")");
        }
        return new ClientConfig(gcInterval, maxAllocs, disk, inode, parallel, policy, maxKill, retention,
                startTimeout, new TaskLimits(perJob, total, perGroup), new PortRange(minPort, maxPort),
                d.node());
    }

    /** Nomad's node keys: top-level {@code name} and {@code datacenter}; {@code client} block class, pool, meta. */
    private static ClientConfig withNode(MapReader root, MapReader client, ClientConfig c) throws TreeProblem {
        NodeConfig d = c.node();
        String name = root.string("name", d.name());
        if (name != null && name.isBlank()) {
            throw root.problem("name", "must not be empty (leave it out for the host name)");
        }
        String dc = root.string("datacenter", d.datacenter());
        if (dc.isBlank()) {
            throw root.problem("datacenter", "must not be empty");
        }
        String nodeClass = client == null ? d.nodeClass() : client.string("node_class", d.nodeClass());
        String pool = client == null ? d.nodePool() : client.string("node_pool", d.nodePool());
        if (pool.isBlank()) {
            throw client.problem("node_pool", "must not be empty");
        }
        Map<String, String> meta = client == null || !client.has("meta") ? d.meta() : client.stringMap("meta");
        Map<String, HostVolumeConfig> volumes = client == null ? d.hostVolumes() : HostVolumes.read(client);
        return new ClientConfig(c.gcInterval(), c.gcMaxAllocs(), c.gcDiskUsageThreshold(), c.gcInodeUsageThreshold(),
                c.gcParallelDestroys(), c.gcKillPolicy(), c.maxKillTimeout(), c.recordRetention(),
                c.driverStartTimeout(), c.taskLimits(), c.dynamicPorts(),
                new NodeConfig(name, dc, nodeClass, pool, meta, volumes));
    }

    private static Map<String, Map<String, Object>> plugins(MapReader r) throws TreeProblem {
        Map<String, Map<String, Object>> plugins = new LinkedHashMap<>();
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (Field f : r.all("plugin")) {
            if (!(f.value() instanceof Node.Mapping block) || block.labels().size() != 1) {
                throw new TreeProblem(f.line(), "plugin", "takes exactly one label, the driver name: plugin \"raw_exec\" { ... }");
            }
            String name = block.labels().get(0);
            String path = "plugin \"" + name + "\"";
            Integer first = lines.putIfAbsent(name, f.line());
            if (first != null) {
                throw new TreeProblem(f.line(), path, "plugin configured more than once (first at line " + first + ")");
            }
            MapReader plugin = MapReader.open(block, path, r.vocabulary(), List.of("config"), List.of());
            plugins.put(name, plugin.anyMap("config"));
        }
        return plugins;
    }
}
