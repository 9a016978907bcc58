package io.drover.core.engine;

import io.drover.core.service.ServiceCatalog;
import io.drover.core.service.ServiceRegistration;
import io.drover.core.template.NomadQuery;
import io.drover.core.template.TemplateException;
import io.drover.core.vars.VariableStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a task's templates read from the service registry ({@code nomadService}, {@code nomadServices}), answered
 * as consul-template answers them: instances sorted by name (then ID), with sorted tags; a tag filter; another
 * region is refused (one node is one region); {@code count key} chooses {@code count} instances by the highest
 * hash of key and ID (a stable choice, like Nomad's {@code choose}, not the same hash). Each answer is also what
 * {@link TemplateWatch} compares to know that a template must render again. In-memory reads; thread-safe.
 *
 * <p>Nomad variables ({@code nomadVar}, {@code nomadVarExists}, {@code nomadVarList}, {@code nomadVarListSafe})
 * are answered from {@code vars} by {@link VariableReads}.
 *
 * @param namespace the task's namespace (a query without {@code ?ns=} reads it)
 * @param region the job's region
 * @param vars the node's variables; null: none
 * @param identity the task's job, group and task names (its workload identity), for {@link VariableReads}
 */
record ServiceReads(ServiceCatalog catalog, String namespace, String region, VariableStore vars,
        List<String> identity) {
    /** No registry: every read answers nothing. */
    static final ServiceReads NONE = new ServiceReads(ServiceCatalog.NONE, "default", "global", null,
            List.of("", "", ""));

    ServiceReads(ServiceCatalog catalog, String namespace, String region) {
        this(catalog, namespace, region, null, List.of("", "", ""));
    }

    Object answer(NomadQuery q) throws TemplateException {
        String fn = switch (q.kind()) {
            case SERVICE -> "nomadService";
            case SERVICES -> "nomadServices";
            default -> "nomadVar";
        };
        if (q.region() != null && !q.region().equals(region)) {
            throw new TemplateException(fn + ": no path to region \""
                    + q.region() + "\" (this node is region \"" + region + "\")");
        }
        String ns = q.namespace() != null ? q.namespace() : namespace;
        return switch (q.kind()) {
            case SERVICES -> list(ns);
            case SERVICE -> instances(q, ns);
            default -> new VariableReads(vars, identity).answer(q, ns);
        };
    }

    private List<Map<String, Object>> list(String ns) {
        Map<List<String>, TreeSet<String>> tags = new TreeMap<>(Comparator.comparing((List<String> k) -> k.get(1))
                .thenComparing(k -> k.get(0)));
        for (ServiceRegistration r : catalog.all()) {
            if (ns.equals("*") || r.namespace().equals(ns)) {
                tags.computeIfAbsent(List.of(r.namespace(), r.serviceName()), k -> new TreeSet<>()).addAll(r.tags());
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        tags.forEach((k, t) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Name", k.get(1));
            m.put("Namespace", k.get(0));
            m.put("Tags", List.copyOf(t));
            out.add(m);
        });
        return out;
    }

    private List<Map<String, Object>> instances(NomadQuery q, String ns) {
        List<ServiceRegistration> found = new ArrayList<>();
        for (ServiceRegistration r : catalog.named(ns, q.name())) {
            if (q.tag() == null || r.tags().contains(q.tag())) {
                found.add(r);
            }
        }
        if (q.count() > 0 && found.size() > q.count()) {
            found.sort(Comparator.comparing((ServiceRegistration r) -> hash(q.key() + "|" + r.id())).reversed());
            found = new ArrayList<>(found.subList(0, q.count()));
        }
        found.sort(Comparator.comparing(ServiceRegistration::serviceName).thenComparing(ServiceRegistration::id));
        List<Map<String, Object>> out = new ArrayList<>();
        for (ServiceRegistration r : found) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ID", r.id());
            m.put("Name", r.serviceName());
            m.put("Node", r.nodeId());
            m.put("Address", r.address());
            m.put("Port", (long) r.port());
            m.put("Datacenter", r.datacenter());
            m.put("Tags", List.copyOf(new TreeSet<>(r.tags())));
            m.put("JobID", r.jobId());
            m.put("AllocID", r.allocId());
            out.add(m);
        }
        return out;
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What a watch compares: the answer now, or the reason it fails. */
    String fingerprint(NomadQuery q) {
        try {
            Object a = answer(q);
            return a instanceof io.drover.core.template.VarItems v ? v.toString() : String.valueOf(a);
        } catch (TemplateException e) {
            return "error " + e.getMessage();
        }
    }
}
