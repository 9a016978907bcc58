package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The jobspec blocks a cluster gives their meaning ({@code update}, {@code reschedule}, {@code migrate},
 * {@code scaling}, {@code ephemeral_disk}, {@code node_pool}): accepted and checked (keys and value types, as
 * Nomad's parser checks them), so that a Nomad job file validates as written, and kept in Nomad's API shape for
 * the job's JSON; one node has nothing to roll, migrate or scale, so they change nothing at run time, except
 * {@code reschedule}, which the agent applies on this node ({@link io.drover.core.spec.ReschedulePolicy}). And the blocks that need a
 * service Drover does not have, each refused in one line naming it and where it is: {@code vault} (Vault),
 * {@code consul} and a {@code service} whose provider is Consul (Consul), {@code connect} (Consul Connect), a
 * CSI {@code volume} and a task's {@code csi_plugin} (CSI; host volumes are {@link VolumeMapper}'s). A
 * {@code service} with {@code provider = "nomad"} needs no Consul: it is kept under {@code "Services"}
 * ({@link ServiceMapper}) and registered in the agent's own registry while it runs. Pure.
 */
final class ClusterBlocks {
    static final List<String> JOB_SINGLE = List.of("update", "reschedule", "migrate", "node_pool", "vault", "consul");
    static final List<String> GROUP_SINGLE = List.of("update", "reschedule", "migrate", "scaling", "ephemeral_disk",
            "vault", "consul");
    static final List<String> GROUP_REPEATABLE = List.of("service", "volume");
    static final List<String> TASK_SINGLE = List.of("vault", "consul", "csi_plugin");
    static final List<String> TASK_REPEATABLE = List.of("service", "volume_mount");

    private static final Map<String, List<String>> KEYS = Map.of(
            "update", List.of("max_parallel", "health_check", "min_healthy_time", "healthy_deadline",
                    "progress_deadline", "auto_revert", "auto_promote", "canary", "stagger"),
            "reschedule", List.of("attempts", "interval", "delay", "delay_function", "max_delay", "unlimited"),
            "migrate", List.of("max_parallel", "health_check", "min_healthy_time", "healthy_deadline"),
            "scaling", List.of("min", "max", "enabled", "policy", "type"),
            "ephemeral_disk", List.of("size", "migrate", "sticky"));
    private static final List<String> DURATIONS = List.of("min_healthy_time", "healthy_deadline",
            "progress_deadline", "stagger", "interval", "delay", "max_delay");
    private static final List<String> BOOLS = List.of("auto_revert", "auto_promote", "unlimited", "enabled", "migrate",
            "sticky");
    private static final List<String> STRINGS = List.of("health_check", "delay_function", "type");
    private static final List<String> BLOCK_ORDER = List.of("update", "reschedule", "migrate", "scaling",
            "ephemeral_disk");

    private ClusterBlocks() {}

    /** Nomad's API names of the blocks' keys ({@code api.UpdateStrategy}, {@code api.ReschedulePolicy}, ...). */
    private static final Map<String, String> NOMAD = Map.ofEntries(Map.entry("max_parallel", "MaxParallel"),
            Map.entry("health_check", "HealthCheck"), Map.entry("min_healthy_time", "MinHealthyTime"),
            Map.entry("healthy_deadline", "HealthyDeadline"), Map.entry("progress_deadline", "ProgressDeadline"),
            Map.entry("auto_revert", "AutoRevert"), Map.entry("auto_promote", "AutoPromote"),
            Map.entry("canary", "Canary"), Map.entry("stagger", "Stagger"), Map.entry("attempts", "Attempts"),
            Map.entry("interval", "Interval"), Map.entry("delay", "Delay"),
            Map.entry("delay_function", "DelayFunction"), Map.entry("max_delay", "MaxDelay"),
            Map.entry("unlimited", "Unlimited"), Map.entry("min", "Min"), Map.entry("max", "Max"),
            Map.entry("enabled", "Enabled"), Map.entry("policy", "Policy"), Map.entry("type", "Type"),
            Map.entry("size", "SizeMB"), Map.entry("migrate", "Migrate"), Map.entry("sticky", "Sticky"));

    /**
     * Checks the level's cluster blocks in {@code r}, recording problems in {@code p}.
     *
     * @param group whether {@code r} is a group (Nomad names its reschedule block {@code ReschedulePolicy} there,
     *     {@code Reschedule} on the job)
     * @return the blocks in Nomad's API shape ({@code "Update" -> {"MaxParallel": 1, ...}}, durations in
     *     nanoseconds), in the order of {@link #KEYS}; the keys left unset are left out, as {@code nomad job
     *     inspect} shows a job before the server's defaults
     */
    static Map<String, Object> check(MapReader r, Problems p, boolean group) {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (String key : BLOCK_ORDER) {
            if (!r.has(key)) {
                continue;
            }
            MapReader b = r.child(key, KEYS.get(key), List.of(), p);
            if (b == null) {
                continue;
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            for (String k : KEYS.get(key)) {
                if (!b.has(k)) {
                    continue;
                }
                Object v;
                if (DURATIONS.contains(k) && !(key.equals("ephemeral_disk"))) {
                    java.time.Duration d = p.read(() -> b.duration(k, null, false), null);
                    v = d == null ? null : d.toNanos();
                } else if (BOOLS.contains(k) && !(key.equals("migrate") && k.equals("migrate"))) {
                    v = p.read(() -> b.bool(k), null);
                } else if (STRINGS.contains(k)) {
                    v = p.read(() -> b.string(k, null), null);
                } else if (k.equals("policy")) {
                    v = p.read(() -> b.anyMap(k), null);
                } else {
                    v = p.read(() -> b.integer(k, 0, 0, Long.MAX_VALUE), null);
                }
                if (v != null) {
                    fields.put(NOMAD.get(k), v);
                }
            }
            kept.put(nomadName(key, group), fields);
        }
        if (r.has("node_pool")) {
            String pool = p.read(() -> r.string("node_pool", null), null);
            if (pool != null) {
                kept.put("NodePool", pool);
            }
        }
        for (String needs : List.of("vault", "consul")) {
            r.field(needs).ifPresent(f -> p.add(needs(f, r, needs.equals("vault") ? "Vault" : "Consul")));
        }
        r.field("csi_plugin").ifPresent(f -> p.add(needs(f, r, "CSI"))); // a task that is a CSI plugin
        List<Object> services = new java.util.ArrayList<>();
        for (Field f : r.all("service")) {
            Map<String, Object> s = service(f, r, p);
            if (s != null) {
                services.add(s);
            }
        }
        if (!services.isEmpty()) {
            kept.put("Services", services);
        }
        for (Field f : r.all("volume")) { // host volumes: VolumeMapper
            Node.Mapping m = f.value() instanceof Node.Mapping mm ? mm : null;
            boolean csi = m != null && m.fields().stream().anyMatch(x -> "type".equals(x.key())
                    && x.value() instanceof Node.Scalar s && "csi".equals(s.value()));
            if (csi) {
                p.add(needs(f, r, "CSI"));
            }
        }
        return kept;
    }

    private static String nomadName(String block, boolean group) {
        return switch (block) {
            case "update" -> "Update";
            case "reschedule" -> group ? "ReschedulePolicy" : "Reschedule";
            case "migrate" -> "Migrate";
            case "scaling" -> "Scaling";
            default -> "EphemeralDisk";
        };
    }

    private static TreeProblem needs(Field f, MapReader r, String what) {
        return new TreeProblem(f.line(), MapReader.join(r.path(), f.name()), "needs " + what + " (" + f.name()
                + " block, line " + f.line() + "), which one Drover node does not have");
    }

    /** @return a {@code provider = "nomad"} service in Nomad's API shape ({@link ServiceMapper}), else null */
    private static Map<String, Object> service(Field f, MapReader r, Problems p) {
        if (!(f.value() instanceof Node.Mapping m)) {
            p.add(new TreeProblem(f.line(), MapReader.join(r.path(), "service"), "must be a block: service { ... }"));
            return null;
        }
        String provider = "consul";
        Field connect = null;
        for (Field x : m.fields()) {
            if ("provider".equals(x.key()) && x.value() instanceof Node.Scalar s && s.value() instanceof String str) {
                provider = str;
            } else if ("connect".equals(x.key())) {
                connect = x;
            }
        }
        if (connect != null) {
            p.add(new TreeProblem(connect.line(), MapReader.join(r.path(), "service > connect"), "needs Consul Connect "
                    + "(connect block, line " + connect.line() + "), which one Drover node does not have"));
        } else if (!provider.equals("nomad")) {
            p.add(new TreeProblem(f.line(), MapReader.join(r.path(), "service"), "needs Consul (service block, line " + f.line()
                    + ", provider \"" + provider + "\"), which one Drover node does not have; "
                    + "provider = \"nomad\" needs none"));
        } else {
            return ServiceMapper.read(f, m, r, p);
        }
        return null;
    }
}
