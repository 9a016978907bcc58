package io.drover.agent.http;

import io.drover.agent.Evaluations;
import io.drover.agent.JobRegistry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job and evaluation reads Nomad's clients use around a registration: {@code GET /v1/job/:id/summary},
 * {@code /v1/job/:id/versions}, {@code /v1/job/:id/evaluations}, {@code /v1/evaluations},
 * {@code /v1/evaluation/:id} and {@code /v1/evaluation/:id/allocations}. Read-only, any server thread, never
 * blocks.
 */
final class NomadJobRoutes {
    private final JobRegistry registry;
    private final AllocJson allocs;

    NomadJobRoutes(JobRegistry registry, AllocJson allocs) {
        this.registry = registry;
        this.allocs = allocs;
    }

    void addRoutes(Router router) {
        router.add("GET", "/v1/job/:id/summary", r -> r.respond(200, JobJson.summary(registry, entry(r))))
                .add("GET", "/v1/job/:id/versions", this::versions)
                .add("GET", "/v1/job/:id/evaluations", r -> r.respond(200,
                        registry.evaluations().ofJob(entry(r).job().id()).stream().map(NomadJobRoutes::eval).toList()))
                .add("GET", "/v1/evaluations", this::evaluations)
                .add("GET", "/v1/evaluation/:id", r -> r.respond(200, eval(evaluation(r))))
                .add("GET", "/v1/evaluation/:id/allocations", this::evalAllocations);
    }

    private JobRegistry.Entry entry(ApiRequest r) throws ApiException {
        String id = r.path("id");
        return registry.job(id).orElseThrow(() -> ApiException.notFound("job not found: " + id));
    }

    private Evaluations.Evaluation evaluation(ApiRequest r) throws ApiException {
        String id = r.path("id");
        return registry.evaluations().get(id).orElseThrow(() -> ApiException.notFound("eval not found: " + id));
    }

    /** Nomad's {@code JobVersionsResponse}: newest first, no diffs. */
    private void versions(ApiRequest r) throws Exception {
        JobRegistry.Entry current = entry(r);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Versions", registry.versions(current.job().id()).stream()
                .map(v -> JobJson.full(registry, current, v.job(), v.version())).toList());
        out.put("Diffs", null);
        r.respond(200, out);
    }

    private void evaluations(ApiRequest r) throws Exception {
        String prefix = r.query("prefix");
        String job = r.query("job");
        r.respond(200, registry.evaluations().all().stream()
                .filter(e -> prefix == null || e.id().startsWith(prefix))
                .filter(e -> job == null || e.jobId().equals(job)).map(NomadJobRoutes::eval).toList());
    }

    private void evalAllocations(ApiRequest r) throws Exception {
        Evaluations.Evaluation e = evaluation(r);
        List<Object> out = registry.job(e.jobId()).map(registry::listedAllocations).orElse(List.of()).stream()
                .filter(a -> registry.evalOf(a.id()).equals(e.id())).map(a -> (Object) allocs.stub(a)).toList();
        r.respond(200, out);
    }

    /** Nomad's {@code AllocMetric} per group this node could not place in full; null when none. */
    private static Map<String, Object> failed(Evaluations.Evaluation e) {
        if (e.failed().isEmpty()) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (var g : e.failed()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("NodesEvaluated", 1);
            m.put("NodesFiltered", g.placeable() == 0 ? 1 : 0);
            m.put("NodesInPool", 1);
            m.put("NodesAvailable", Map.of("dc1", 1));
            Map<String, Integer> filtered = new LinkedHashMap<>();
            g.filtered().forEach(c -> filtered.put(c, 1));
            m.put("ConstraintFiltered", filtered);
            m.put("NodesExhausted", 0);
            m.put("CoalescedFailures", Math.max(0, g.count() - g.placeable() - 1));
            out.put(g.group(), m);
        }
        return out;
    }

    /** Nomad's {@code Evaluation}: decided on this node as it was created, so {@code complete}. */
    static Map<String, Object> eval(Evaluations.Evaluation e) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ID", e.id());
        m.put("Namespace", e.namespace());
        m.put("Priority", e.priority());
        m.put("Type", e.type());
        m.put("TriggeredBy", e.triggeredBy());
        m.put("JobID", e.jobId());
        m.put("JobModifyIndex", e.jobModifyIndex());
        m.put("Status", e.status());
        m.put("StatusDescription", e.statusDescription());
        m.put("FailedTGAllocs", failed(e));
        m.put("QueuedAllocations", Map.of());
        m.put("CreateIndex", e.createIndex());
        m.put("ModifyIndex", e.modifyIndex());
        m.put("CreateTime", e.createTime());
        m.put("ModifyTime", e.createTime());
        return m;
    }
}
