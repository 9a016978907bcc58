package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.spec.parse.tree.Vocabulary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a job in Nomad's JSON API shape ({@code {"Job": {"ID": ..., "TaskGroups": [{"Name": ...,
 * "Tasks": [...]}]}}}, or the bare job object) into the jobspec's shape, so that {@link JobMapper} reads both
 * syntaxes: PascalCase keys get their canonical jobspec key (the written name stays for messages), {@code ID}
 * and {@code Name} become block labels, the lists {@code TaskGroups} and {@code Tasks} become repeated
 * {@code group} and {@code task} blocks. {@code Config}, {@code Env} and {@code Meta} are kept verbatim.
 * Unknown keys are kept with no canonical key, so that the mapper refuses them — except at Nomad's "unset"
 * values ({@link #unset}), which {@code nomad job run -output} writes for every field a jobspec left out: an empty
 * string anywhere, and zero, false, [] or {} for a key Drover does not know (e.g. {@code "User": ""},
 * {@code "Kind": ""}, {@code "Constraints": []}) are dropped, as {@code null} members already are. Pure.
 */
final class JsonJobShape {
    private static final Map<String, String> CANONICAL_TO_JSON = Map.ofEntries(
            Map.entry("job", "Job"), Map.entry("name", "Name"), Map.entry("type", "Type"),
            Map.entry("datacenters", "Datacenters"), Map.entry("region", "Region"),
            Map.entry("namespace", "Namespace"), Map.entry("priority", "Priority"), Map.entry("meta", "Meta"),
            Map.entry("all_at_once", "AllAtOnce"), Map.entry("group", "TaskGroups"), Map.entry("count", "Count"),
            Map.entry("restart", "RestartPolicy"), Map.entry("max_runtime", "MaxRuntime"),
            Map.entry("task", "Tasks"), Map.entry("driver", "Driver"), Map.entry("config", "Config"),
            Map.entry("env", "Env"), Map.entry("leader", "Leader"), Map.entry("lifecycle", "Lifecycle"),
            Map.entry("hook", "Hook"), Map.entry("sidecar", "Sidecar"), Map.entry("gc_kill", "GcKill"),
            Map.entry("kill_timeout", "KillTimeout"), Map.entry("kill_signal", "KillSignal"),
            Map.entry("shutdown_delay", "ShutdownDelay"), Map.entry("logs", "LogConfig"),
            Map.entry("max_files", "MaxFiles"), Map.entry("max_file_size", "MaxFileSizeMB"),
            Map.entry("resources", "Resources"), Map.entry("cpu", "CPU"), Map.entry("cores", "Cores"),
            Map.entry("memory", "MemoryMB"), Map.entry("memory_max", "MemoryMaxMB"),
            Map.entry("attempts", "Attempts"), Map.entry("interval", "Interval"), Map.entry("delay", "Delay"),
            Map.entry("mode", "Mode"), Map.entry("constraint", "Constraints"), Map.entry("affinity", "Affinities"),
            Map.entry("spread", "Spreads"), Map.entry("attribute", "LTarget"), Map.entry("operator", "Operand"),
            Map.entry("value", "RTarget"), Map.entry("weight", "Weight"), Map.entry("target", "SpreadTarget"),
            Map.entry("percent", "Percent"), Map.entry("disk", "DiskMB"),
            // the blocks a cluster gives their meaning (ClusterBlocks), as Nomad's api structs name them
            Map.entry("update", "Update"), Map.entry("reschedule", "Reschedule"), Map.entry("migrate", "Migrate"),
            Map.entry("scaling", "Scaling"), Map.entry("ephemeral_disk", "EphemeralDisk"),
            Map.entry("node_pool", "NodePool"), Map.entry("max_parallel", "MaxParallel"),
            Map.entry("health_check", "HealthCheck"), Map.entry("min_healthy_time", "MinHealthyTime"),
            Map.entry("healthy_deadline", "HealthyDeadline"), Map.entry("progress_deadline", "ProgressDeadline"),
            Map.entry("auto_revert", "AutoRevert"), Map.entry("auto_promote", "AutoPromote"),
            Map.entry("canary", "Canary"), Map.entry("stagger", "Stagger"),
            Map.entry("delay_function", "DelayFunction"), Map.entry("max_delay", "MaxDelay"),
            Map.entry("unlimited", "Unlimited"), Map.entry("min", "Min"), Map.entry("max", "Max"),
            Map.entry("enabled", "Enabled"), Map.entry("policy", "Policy"), Map.entry("size", "SizeMB"),
            Map.entry("sticky", "Sticky"), Map.entry("max_run_duration", "MaxRunDuration"),
            // a task's workload identities (WorkloadMapper) and user
            Map.entry("identity", "Identities"), Map.entry("aud", "Audience"), Map.entry("change_mode", "ChangeMode"),
            Map.entry("change_signal", "ChangeSignal"), Map.entry("file", "File"), Map.entry("filepath", "Filepath"),
            Map.entry("service_name", "ServiceName"), Map.entry("ttl", "TTL"), Map.entry("extra_claims", "ExtraClaims"),
            Map.entry("user", "User"),
            // what needs a service one node does not have, refused by ClusterBlocks in both syntaxes
            Map.entry("vault", "Vault"), Map.entry("consul", "Consul"), Map.entry("service", "Services"),
            Map.entry("provider", "Provider"), Map.entry("connect", "Connect"));

    private static final Map<String, String> JSON_TO_CANONICAL = new HashMap<>();

    static {
        CANONICAL_TO_JSON.forEach((canonical, json) -> JSON_TO_CANONICAL.put(json, canonical));
        ScheduleMapper.JSON.forEach((canonical, json) -> JSON_TO_CANONICAL.putIfAbsent(json, canonical));
        JSON_TO_CANONICAL.put("Attribute", "attribute"); // a spread's attribute (a constraint's is LTarget)
        JSON_TO_CANONICAL.put("ReschedulePolicy", "reschedule"); // a group's (the job's is Reschedule)
        JSON_TO_CANONICAL.put("Identity", "identity"); // a task's default identity (named ones: Identities)
    }

    /**
     * Lists of objects that are repeated blocks in the jobspec: {@code "Constraints": [{...}]} is
     * {@code constraint { ... }} written once per item; a {@code SpreadTarget}'s {@code Value} is its label.
     */
    private static final Set<String> BLOCK_LISTS = Set.of("Constraints", "Affinities", "Spreads", "SpreadTarget",
            "Identities", "Services");

    /**
     * What Nomad's server sets on a job and its API returns ({@code GET /v1/job/:id}): ignored in a job read back,
     * as Nomad's register ignores them, so that a job's JSON registers again as it is.
     */
    private static final Set<String> SERVER_SET = Set.of("Status", "StatusDescription", "Stable", "Version",
            "SubmitTime", "CreateIndex", "ModifyIndex", "JobModifyIndex");

    private static final Set<String> VERBATIM = Set.of("Config", "Env", "Meta", "Policy");

    /** Spells canonical keys the JSON way; durations may be integer nanoseconds, as in Nomad's API. */
    static final Vocabulary VOCABULARY = new Vocabulary(withAll(CANONICAL_TO_JSON, ScheduleMapper.JSON), true);

    private static Map<String, String> withAll(Map<String, String> base, Map<String, String> more) {
        Map<String, String> all = new HashMap<>(base);
        more.forEach(all::putIfAbsent);
        return Map.copyOf(all);
    }

    private JsonJobShape() {}

    /** @return a file-level mapping holding one {@code job} field */
    static Node.Mapping toJobTree(Node.Mapping root) throws TreeProblem {
        Node.Mapping job = root;
        Field wrapper = find(root, "Job");
        if (wrapper != null) {
            for (Field f : root.fields()) {
                if (!f.name().equals("Job")) {
                    throw new TreeProblem(f.line(), f.name(), "unknown key (allowed: Job)");
                }
            }
            if (!(wrapper.value() instanceof Node.Mapping m)) {
                throw new TreeProblem(wrapper.line(), "Job", "must be an object, found " + wrapper.value().describe());
            }
            job = m;
        }
        if (wrapper == null && find(job, "ID") == null) {
            throw new TreeProblem(job.line(), "Job", "is required: Nomad's API shape is {\"Job\": {\"ID\": ..., \"TaskGroups\": [...]}}");
        }
        String id = label(job, "ID", "Job");
        List<Field> fields = new ArrayList<>();
        for (Field f : job.fields()) {
            if (f.name().equals("ID") || unset(f) || SERVER_SET.contains(f.name())) {
                continue;
            }
            if (f.name().equals("TaskGroups")) {
                fields.addAll(blocks(f, "group", "job \"" + id + "\""));
            } else {
                fields.addAll(renameAll(f));
            }
        }
        Node.Mapping jobBlock = new Node.Mapping(List.of(id), fields, job.line());
        return new Node.Mapping(List.of(), List.of(new Field("job", "Job", jobBlock, job.line())), 1);
    }

    private static Field find(Node.Mapping m, String name) {
        return m.fields().stream().filter(f -> f.name().equals(name)).findFirst().orElse(null);
    }

    private static String label(Node.Mapping m, String key, String path) throws TreeProblem {
        Field f = find(m, key);
        if (f == null) {
            throw new TreeProblem(m.line(), path + " > " + key, "is required");
        }
        if (!(f.value() instanceof Node.Scalar s) || !(s.value() instanceof String str)) {
            throw new TreeProblem(f.line(), path + " > " + key, "must be a string, found " + f.value().describe());
        }
        return str;
    }

    /** {@code "TaskGroups": [...]} or {@code "Tasks": [...]} to repeated labelled blocks. */
    private static List<Field> blocks(Field list, String canonical, String path) throws TreeProblem {
        if (!(list.value() instanceof Node.Sequence seq)) {
            throw new TreeProblem(list.line(), path + " > " + list.name(),
                    "must be a list of objects, found " + list.value().describe());
        }
        List<Field> out = new ArrayList<>();
        for (Node item : seq.items()) {
            if (!(item instanceof Node.Mapping m)) {
                throw new TreeProblem(item.line(), path + " > " + list.name(),
                        "must be a list of objects, found " + item.describe() + " in it");
            }
            String name = label(m, "Name", path + " > " + list.name());
            String here = path + " > " + canonical + " \"" + name + "\"";
            List<Field> fields = new ArrayList<>();
            for (Field f : m.fields()) {
                if (f.name().equals("Name") || unset(f)) {
                    continue;
                }
                if (canonical.equals("group") && f.name().equals("Tasks")) {
                    fields.addAll(blocks(f, "task", here));
                } else {
                    fields.addAll(renameAll(f));
                }
            }
            out.add(new Field(canonical, list.name(), new Node.Mapping(List.of(name), fields, m.line()), m.line()));
        }
        return out;
    }

    /**
     * Nomad's API spelling of "not set", outside {@code Config}, {@code Env} and {@code Meta}: an empty string for
     * any key (Nomad's API treats "" as unset, e.g. {@code "KillSignal": ""}), and for a key Drover does not know
     * also zero, false and an empty list or object.
     */
    private static boolean unset(Field f) {
        if (f.value() instanceof Node.Scalar s && "".equals(s.value())) {
            return true;
        }
        if (JSON_TO_CANONICAL.containsKey(f.name())) {
            return false;
        }
        if (f.value() instanceof Node.Scalar s) {
            return Boolean.FALSE.equals(s.value()) || (s.value() instanceof Number n && n.doubleValue() == 0);
        }
        if (f.value() instanceof Node.Sequence q) {
            return q.items().isEmpty();
        }
        return f.value() instanceof Node.Mapping m && m.fields().isEmpty();
    }

    /** {@link #rename}, with a list of {@link #BLOCK_LISTS} spread into one field per item. */
    private static List<Field> renameAll(Field f) {
        if (JsonRuntimeShape.handles(f.name())) {
            return JsonRuntimeShape.blocks(f); // artifact, template and network blocks: their own file
        }
        if (!BLOCK_LISTS.contains(f.name()) || !(f.value() instanceof Node.Sequence seq)
                || !seq.items().stream().allMatch(i -> i instanceof Node.Mapping)) {
            return List.of(rename(f));
        }
        String canonical = JSON_TO_CANONICAL.get(f.name());
        List<Field> out = new ArrayList<>();
        for (Node item : seq.items()) {
            Node.Mapping m = (Node.Mapping) item;
            List<String> labels = List.of();
            List<Field> inner = new ArrayList<>();
            for (Field x : m.fields()) {
                if (f.name().equals("SpreadTarget") && x.name().equals("Value") && x.value() instanceof Node.Scalar s
                        && s.value() instanceof String v) {
                    labels = List.of(v);
                } else if (!unset(x)) {
                    inner.addAll(renameAll(x));
                }
            }
            out.add(new Field(canonical, f.name(), new Node.Mapping(labels, inner, m.line()), item.line()));
        }
        return out;
    }

    private static Field rename(Field f) {
        String canonical = JSON_TO_CANONICAL.get(f.name());
        if (VERBATIM.contains(f.name()) || !(f.value() instanceof Node.Mapping m)) {
            return new Field(canonical, f.name(), f.value(), f.line());
        }
        List<Field> fields = new ArrayList<>();
        for (Field inner : m.fields()) {
            if (!unset(inner)) {
                fields.addAll(renameAll(inner));
            }
        }
        return new Field(canonical, f.name(), new Node.Mapping(m.labels(), fields, m.line()), f.line());
    }
}
