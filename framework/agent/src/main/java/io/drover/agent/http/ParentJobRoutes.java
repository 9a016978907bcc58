package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.agent.JobRegistry;
import io.drover.agent.ParentJobs;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The routes of parent jobs, in Nomad's shapes: {@code POST|PUT /v1/job/:id/dispatch} (Nomad's
 * {@code JobDispatchRequest}: {@code Payload} base64, {@code Meta}, {@code IdPrefixTemplate}; answers
 * {@code JobDispatchResponse}) and {@code POST|PUT /v1/job/:id/periodic/force} ({@code PeriodicForceResponse}).
 * API threads; like a registration, each answers once the child's allocations are on disk.
 */
final class ParentJobRoutes {
    private final JobRegistry registry;
    private final ParentJobs parents;
    private final Supplier<Optional<String>> writesRefused;

    ParentJobRoutes(JobRegistry registry, ParentJobs parents, Supplier<Optional<String>> writesRefused) {
        this.registry = registry;
        this.parents = parents;
        this.writesRefused = writesRefused;
    }

    void addRoutes(Router router) {
        router.add("PUT,POST", "/v1/job/:id/dispatch", this::dispatch)
                .add("PUT,POST", "/v1/job/:id/periodic/force", this::force);
    }

    private void dispatch(ApiRequest req) throws Exception {
        String id = req.path("id");
        byte[] body = req.body();
        JsonNode tree = body.length == 0 ? Json.parse("{}".getBytes()) : Json.parse(body);
        if (!tree.isObject()) {
            throw ApiException.badRequest("request body must be Nomad's dispatch request {\"Payload\": \"<base64>\", "
                    + "\"Meta\": {...}}");
        }
        byte[] payload = new byte[0];
        JsonNode p = tree.path("Payload");
        if (p.isTextual() && !p.asText().isEmpty()) {
            try {
                payload = Base64.getDecoder().decode(p.asText());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("Payload must be base64: " + e.getMessage());
            }
        } else if (!p.isMissingNode() && !p.isNull() && !p.isTextual()) {
            throw ApiException.badRequest("Payload must be a base64 string, found " + p.getNodeType());
        }
        Map<String, String> meta = new LinkedHashMap<>();
        JsonNode m = tree.path("Meta");
        if (m.isObject()) {
            for (var it = m.fields(); it.hasNext();) {
                var f = it.next();
                if (!f.getValue().isTextual()) {
                    throw ApiException.badRequest("Meta \"" + f.getKey() + "\" must be a string");
                }
                meta.put(f.getKey(), f.getValue().asText());
            }
        } else if (!m.isMissingNode() && !m.isNull()) {
            throw ApiException.badRequest("Meta must be an object of strings");
        }
        JsonNode prefix = tree.path("IdPrefixTemplate");
        io.drover.agent.DispatchRequest request = new io.drover.agent.DispatchRequest(meta, payload,
                prefix.isTextual() ? prefix.asText() : "");
        ParentJobs.Launched launched = launch(() -> parents.dispatch(id, request));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("DispatchedJobID", launched.child().id());
        put(out, launched);
        out.put("JobCreateIndex", launched.registration().entry().createIndex());
        req.setHeader("X-Nomad-Index", Long.toString(launched.registration().entry().modifyIndex()));
        req.respond(200, out);
    }

    private void force(ApiRequest req) throws Exception {
        String id = req.path("id");
        ParentJobs.Launched launched = launch(() -> parents.force(id));
        Map<String, Object> out = new LinkedHashMap<>();
        put(out, launched);
        req.setHeader("X-Nomad-Index", Long.toString(launched.registration().entry().modifyIndex()));
        req.respond(200, out);
    }

    private static void put(Map<String, Object> out, ParentJobs.Launched launched) {
        JobRegistry.Registration reg = launched.registration();
        out.put("EvalID", reg.eval() == null ? "" : reg.eval().id());
        out.put("EvalCreateIndex", reg.eval() == null ? 0 : reg.eval().createIndex());
        out.put("Index", reg.entry().modifyIndex());
    }

    @FunctionalInterface
    private interface Launch {
        ParentJobs.Launched run() throws io.drover.agent.DispatchRequest.DispatchException;
    }

    private ParentJobs.Launched launch(Launch launch) throws Exception {
        ParentJobs.Launched launched;
        try {
            launched = launch.run();
        } catch (io.drover.agent.DispatchRequest.DispatchException e) {
            throw new ApiException(e.status(), e.getMessage());
        } catch (JobRegistry.TooManyTasksException e) {
            throw new ApiException(429, e.getMessage());
        } catch (IllegalStateException e) {
            throw new ApiException(503, "agent is shutting down");
        }
        JobsHandler.awaitRecorded(registry, writesRefused, launched.registration(), launched.child());
        return launched;
    }
}
