package io.drover.agent.http;

import io.drover.core.engine.ServiceRegistry;
import io.drover.core.service.ServiceRegistration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Nomad's service registration API over the agent's {@link ServiceRegistry} ({@code provider = "nomad"} services of
 * running tasks), in Nomad's JSON shape: {@code GET /v1/services} (one entry per namespace: {@code Namespace},
 * {@code Services: [{ServiceName, Tags}]}), {@code GET /v1/service/:name} (the {@code ServiceRegistration}s),
 * {@code DELETE /v1/service/:name/:id}. {@code ?namespace=} selects the namespace ({@code default} when absent,
 * {@code *} every one). The GETs are blocking queries like every read route (a registration change takes a new
 * agent index). Any server thread; in-memory reads, never blocks.
 */
final class ServiceRoutes {
    private final ServiceRegistry registry;

    ServiceRoutes(ServiceRegistry registry) {
        this.registry = registry;
    }

    void addRoutes(Router router) {
        router.add("GET", "/v1/services", r -> r.respond(200, list(namespace(r))))
                .add("GET", "/v1/service/:name", r -> r.respond(200, registry.named(namespace(r), r.path("name"))))
                .add("DELETE", "/v1/service/:name/:id", this::delete);
    }

    private static String namespace(ApiRequest r) {
        String ns = r.query("namespace");
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    /** Nomad's {@code ServiceRegistrationListStub}s: per namespace, each service's name and every tag it has. */
    private List<Map<String, Object>> list(String namespace) {
        Map<String, Map<String, TreeSet<String>>> byNamespace = new LinkedHashMap<>();
        for (ServiceRegistration s : registry.all()) { // sorted by namespace, then name
            if (namespace.equals("*") || s.namespace().equals(namespace)) {
                byNamespace.computeIfAbsent(s.namespace(), k -> new LinkedHashMap<>())
                        .computeIfAbsent(s.serviceName(), k -> new TreeSet<>()).addAll(s.tags());
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        byNamespace.forEach((ns, services) -> {
            List<Map<String, Object>> stubs = new ArrayList<>();
            services.forEach((name, tags) -> {
                Map<String, Object> stub = new LinkedHashMap<>();
                stub.put("ServiceName", name);
                stub.put("Tags", List.copyOf(tags));
                stubs.add(stub);
            });
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("Namespace", ns);
            m.put("Services", stubs);
            out.add(m);
        });
        return out;
    }

    private void delete(ApiRequest r) throws Exception {
        String name = r.path("name");
        String id = r.path("id");
        if (!registry.delete(namespace(r), name, id)) {
            throw ApiException.notFound("service registration not found: " + name + " " + id);
        }
        r.respond(200, Map.of());
    }
}
