package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.driver.api.Signals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task's {@code identity} blocks (Nomad's workload identities) and its {@code user}, for {@link JobMapper}: checked
 * as Nomad checks them and kept in Nomad's API shape ({@code "Identity"} for the default one, {@code "Identities"}
 * for named ones, {@code "User"}), which the engine reads back ({@code WorkloadIdentity}). An identity meant for
 * Vault or Consul (named {@code vault_*} / {@code consul_*}, or with the audience {@code vault.io} /
 * {@code consul.io}) is refused naming what it needs, as the {@code vault} and {@code consul} blocks are. Pure;
 * problems are recorded, never thrown.
 */
final class WorkloadMapper {
    static final String IDENTITY = "identity";
    private static final List<String> KEYS = List.of("name", "aud", "change_mode", "change_signal", "env", "file",
            "filepath", "service_name", "ttl", "extra_claims");
    /** Nomad's name of the identity a block without {@code name} gives. */
    static final String DEFAULT_NAME = "default";

    private WorkloadMapper() {}

    /** Reads the task's identities and user into {@code kept} (Nomad's field names). */
    static void task(MapReader r, Problems p, Map<String, Object> kept) {
        List<Map<String, Object>> named = new ArrayList<>();
        Map<String, Integer> lines = new HashMap<>();
        for (Field f : r.all(IDENTITY)) {
            Map<String, Object> id = identity(r, f, p);
            if (id == null) {
                continue;
            }
            String name = (String) id.get("Name");
            Integer first = lines.putIfAbsent(name, f.line());
            if (first != null) {
                p.add(new TreeProblem(f.line(), r.keyPath(IDENTITY), "duplicate identity \"" + name
                        + "\" (first at line " + first + ")"));
            } else if (name.equals(DEFAULT_NAME)) {
                kept.put("Identity", id);
            } else {
                named.add(id);
            }
        }
        if (!named.isEmpty()) {
            kept.put("Identities", List.copyOf(named));
        }
        if (r.has("user")) {
            String user = p.read(() -> r.string("user", null), null);
            if (user != null && !user.isEmpty()) {
                if (!user.matches("[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}")) {
                    p.add(r.problem("user", "not a user name: \"" + user + "\""));
                } else {
                    kept.put("User", user);
                }
            }
        }
    }

    private static Map<String, Object> identity(MapReader task, Field f, Problems p) {
        if (!(f.value() instanceof Node.Mapping m) || !m.labels().isEmpty()) {
            p.add(new TreeProblem(f.line(), task.keyPath(IDENTITY), "must be a block without a label: identity { ... }"));
            return null;
        }
        int before = p.size();
        MapReader r = MapReader.open(m, task.keyPath(IDENTITY), task.vocabulary(), KEYS, List.of(), p);
        String name = p.read(() -> r.string("name", DEFAULT_NAME), DEFAULT_NAME);
        List<String> aud = p.read(() -> r.strings("aud"), null);
        String changeMode = p.read(() -> r.string("change_mode", "noop"), "noop");
        if (!List.of("noop", "restart", "signal").contains(changeMode)) {
            p.add(r.problem("change_mode", "must be noop, restart or signal, found \"" + changeMode + "\""));
        }
        String signal = p.read(() -> r.string("change_signal", null), null);
        if (changeMode.equals("signal") && signal == null) {
            p.add(r.problem("change_signal", "is required with change_mode = \"signal\""));
        } else if (signal != null && Signals.canonical(signal).isEmpty()) {
            p.add(r.problem("change_signal", "unknown signal \"" + signal + "\""));
        }
        boolean env = p.read(() -> r.bool("env", false), false);
        boolean file = p.read(() -> r.bool("file", false), false);
        String filepath = p.read(() -> r.string("filepath", null), null);
        if (filepath != null && !filepath.isEmpty() && !file) {
            p.add(r.problem("filepath", "needs file = true"));
        } else if (filepath != null && (filepath.startsWith("/") || List.of(filepath.split("/")).contains(".."))) {
            p.add(r.problem("filepath", "must be a path inside the task directory, found \"" + filepath + "\""));
        }
        String serviceName = p.read(() -> r.string("service_name", null), null);
        Duration ttl = p.read(() -> r.duration("ttl", null, false), null);
        List<String> extraClaims = p.read(() -> r.strings("extra_claims"), null);
        String needs = needs(name, aud);
        if (needs != null) {
            p.add(new TreeProblem(f.line(), task.keyPath(IDENTITY), "needs " + needs + " (identity \"" + name
                    + "\", line " + f.line() + "), which one Drover node does not have"));
        } else if (serviceName != null && !serviceName.isEmpty()) {
            p.add(r.problem("service_name", "service identities need Consul, which one Drover node does not have"));
        }
        if (p.size() != before) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Name", name);
        out.put("Audience", aud == null ? List.of("nomadproject.io") : aud); // Nomad's default audience
        out.put("ChangeMode", changeMode);
        if (signal != null) {
            out.put("ChangeSignal", Signals.canonical(signal).orElse(signal));
        }
        out.put("Env", env);
        out.put("File", file);
        if (filepath != null && !filepath.isEmpty()) {
            out.put("Filepath", filepath);
        }
        if (ttl != null) {
            out.put("TTL", ttl.toNanos());
        }
        if (extraClaims != null) {
            out.put("ExtraClaims", extraClaims);
        }
        return out;
    }

    /** What a Vault or Consul identity needs (Nomad's naming and audiences), null for a Nomad one. */
    private static String needs(String name, List<String> aud) {
        List<String> a = aud == null ? List.of() : aud;
        if (name.startsWith("vault_") || a.contains("vault.io")) {
            return "Vault";
        }
        if (name.startsWith("consul_") || a.contains("consul.io")) {
            return "Consul";
        }
        return null;
    }
}
