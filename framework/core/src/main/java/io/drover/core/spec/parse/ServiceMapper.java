package io.drover.core.spec.parse;

import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@code service} block with {@code provider = "nomad"} into Nomad's API shape ({@code api.Service}:
 * {@code Name}, {@code PortLabel}, {@code Tags}, {@code Address}, {@code AddressMode}, {@code Provider},
 * {@code Meta}, {@code Checks}), kept in the level's cluster fields under {@code "Services"}, which is what the
 * agent's service registry registers while the task (or, for a group service, the allocation) runs. Both
 * syntaxes: the jobspec's keys ({@code port}, {@code tags}, {@code check} blocks) and the API's
 * ({@code PortLabel}, {@code Tags}, {@code Checks}). Checks are kept, not run. Pure.
 */
final class ServiceMapper {
    private static final List<String> ADDRESS_MODES = List.of("auto", "host", "alloc", "driver");

    private ServiceMapper() {}

    /** @return the service in Nomad's API shape, or null when it has problems (recorded in {@code p}) */
    static Map<String, Object> read(Field f, Node.Mapping m, MapReader r, Problems p) {
        String path = MapReader.join(r.path(), "service");
        int before = p.size();
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> checks = new ArrayList<>();
        for (Field x : m.fields()) {
            String k = x.key() != null ? x.key() : x.name();
            switch (k) {
                case "name", "Name" -> put(out, "Name", string(x, path, p));
                case "port", "PortLabel" -> {
                    if (x.value() instanceof Node.Scalar s && s.value() instanceof Long n) {
                        out.put("PortLabel", String.valueOf(n));
                    } else {
                        put(out, "PortLabel", string(x, path, p));
                    }
                }
                case "tags", "Tags" -> out.put("Tags", strings(x, path, p));
                case "canary_tags", "CanaryTags" -> out.put("CanaryTags", strings(x, path, p));
                case "address", "Address" -> put(out, "Address", string(x, path, p));
                case "address_mode", "AddressMode" -> {
                    String mode = string(x, path, p);
                    if (mode != null && !ADDRESS_MODES.contains(mode)) {
                        p.add(new TreeProblem(x.line(), path + " > " + x.name(), "unknown address_mode \"" + mode
                                + "\" (auto, host, alloc or driver)"));
                    }
                    put(out, "AddressMode", mode);
                }
                case "provider", "Provider" -> put(out, "Provider", string(x, path, p));
                case "meta", "Meta" -> put(out, "Meta", plain(x.value()));
                case "check", "Checks" -> {
                    Object c = plain(x.value());
                    if (c instanceof List<?> l) {
                        checks.addAll(l);
                    } else {
                        checks.add(c);
                    }
                }
                default -> { } // the rest of Nomad's service keys (on_update, task, ...): nothing to do here
            }
        }
        if (!checks.isEmpty()) {
            out.put("Checks", checks);
        }
        return p.size() == before ? out : null;
    }

    /**
     * Nomad's check of a group's services (its own and its tasks'): every port label they name is a port of the
     * group's network, else {@code port label "x" referenced by services a, b does not exist}, one line per label.
     */
    @SuppressWarnings("unchecked")
    static void checkPorts(String path, int line, io.drover.core.spec.Network network, Map<String, Object> cluster,
            List<io.drover.core.spec.Task> tasks, Problems p) {
        java.util.Set<String> labels = new java.util.HashSet<>();
        network.ports().forEach(port -> labels.add(port.label()));
        Map<String, java.util.TreeSet<String>> used = new java.util.TreeMap<>();
        List<Object> services = new ArrayList<>();
        if (cluster.get("Services") instanceof List<?> l) {
            services.addAll(l);
        }
        for (io.drover.core.spec.Task t : tasks) {
            if (t.cluster().get("Services") instanceof List<?> l) {
                services.addAll(l);
            }
        }
        for (Object o : services) {
            Map<String, Object> s = (Map<String, Object>) o;
            if (s.get("PortLabel") instanceof String label && !label.isEmpty() && !label.matches("[0-9]+")
                    && !label.contains("${") && !labels.contains(label)) {
                used.computeIfAbsent(label, k -> new java.util.TreeSet<>()).add(String.valueOf(s.getOrDefault("Name",
                        "(default name)")));
            }
        }
        used.forEach((label, names) -> p.add(new TreeProblem(line, path + " > service", "port label \"" + label
                + "\" referenced by services " + String.join(", ", names) + " does not exist")));
    }

    private static void put(Map<String, Object> out, String key, Object v) {
        if (v != null) {
            out.put(key, v);
        }
    }

    private static String string(Field x, String path, Problems p) {
        if (x.value() instanceof Node.Scalar s && s.value() instanceof String str) {
            return str;
        }
        p.add(new TreeProblem(x.line(), path + " > " + x.name(), "must be a string, found " + x.value().describe()));
        return null;
    }

    private static List<String> strings(Field x, String path, Problems p) {
        List<String> out = new ArrayList<>();
        if (x.value() instanceof Node.Sequence seq) {
            for (Node n : seq.items()) {
                if (n instanceof Node.Scalar s && s.value() instanceof String str) {
                    out.add(str);
                } else {
                    p.add(new TreeProblem(n.line(), path + " > " + x.name(), "must be a list of strings, found "
                            + n.describe() + " in it"));
                }
            }
        } else {
            p.add(new TreeProblem(x.line(), path + " > " + x.name(), "must be a list of strings, found "
                    + x.value().describe()));
        }
        return out;
    }

    /** A node as plain values (a repeated key becomes a list), for what is kept but not interpreted. */
    private static Object plain(Node n) {
        if (n instanceof Node.Scalar s) {
            return s.value();
        }
        if (n instanceof Node.Sequence seq) {
            List<Object> out = new ArrayList<>();
            seq.items().forEach(i -> out.add(plain(i)));
            return out;
        }
        Node.Mapping m = (Node.Mapping) n;
        Map<String, Object> out = new LinkedHashMap<>();
        for (Field f : m.fields()) {
            Object v = plain(f.value());
            Object had = out.get(f.name());
            if (had instanceof List<?> l && f.value() instanceof Node.Mapping) {
                List<Object> more = new ArrayList<>(l);
                more.add(v);
                out.put(f.name(), more);
            } else if (had != null) {
                out.put(f.name(), new ArrayList<>(List.of(had, v)));
            } else {
                out.put(f.name(), v);
            }
        }
        return out;
    }
}
