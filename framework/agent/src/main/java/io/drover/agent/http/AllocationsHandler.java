package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.engine.Engine;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.driver.api.Signals;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Allocation routes: {@code GET /v1/allocations[?prefix=]}, {@code GET /v1/allocation/:id} (id or unique
 * prefix), {@code POST|PUT /v1/allocation/:id/stop}, {@code POST|PUT /v1/client/allocation/:id/signal} with
 * Nomad's body {@code {"Signal": "SIGUSR1", "Task": "web"}} (no Task: every running task). Allocations are
 * Nomad's {@code Allocation} subset of {@link AllocationState}. Runs on server threads; stop and signal only
 * post to the allocation's executor and return.
 */
public final class AllocationsHandler {
    private static final Logger LOG = LoggerFactory.getLogger(AllocationsHandler.class);

    static final int CACHED = 4096;

    private final Engine engine;
    private final AllocLookup lookup;
    private final Map<String, Cached> json = new ConcurrentHashMap<>();

    /** The JSON of one allocation snapshot. */
    private record Cached(AllocationState state, long modifyIndex, byte[] bytes) {}

    private final AllocJson shape;

    AllocationsHandler(Engine engine, AllocLookup lookup, AllocJson shape) {
        this.engine = engine;
        this.lookup = lookup;
        this.shape = shape;
    }

    public void addRoutes(Router router) {
        router.add("GET", "/v1/allocations", this::list)
                .add("GET", "/v1/allocation/:id", this::read)
                .add("POST,PUT", "/v1/allocation/:id/stop", this::stop)
                .add("POST,PUT", "/v1/client/allocation/:id/signal", this::signal);
    }

    /**
     * {@code GET /v1/allocation/:id}, the route clients poll: the JSON of a snapshot is built once and served from
     * {@link #json} until the allocation changes (snapshots are immutable and replaced on every change, so the
     * identity of the snapshot is the cache key). At most {@value #CACHED} entries; the cache is emptied when
     * full (simple and bounded: a miss only costs one serialisation).
     */
    private void read(ApiRequest req) throws Exception {
        AllocationState alloc = lookup.find(req.path("id"));
        Cached c = json.get(alloc.id());
        long modifyIndex = io.drover.agent.AllocIndexes.of(alloc).modifyIndex();
        byte[] bytes;
        if (c != null && c.state() == alloc && c.modifyIndex() == modifyIndex) {
            bytes = c.bytes();
        } else {
            bytes = Json.MAPPER.writeValueAsBytes(shape.full(alloc));
            if (json.size() >= CACHED) {
                json.clear();
            }
            json.put(alloc.id(), new Cached(alloc, modifyIndex, bytes));
        }
        req.respondBytes(200, "application/json", bytes);
    }

    private void list(ApiRequest req) throws Exception {
        String prefix = req.query("prefix");
        // only allocations on disk: one a kill -9 could still erase is never listed (docs/faults.md)
        java.util.List<AllocationState> allocs = engine.recordedAllocations().stream()
                .filter(a -> prefix == null || a.id().startsWith(prefix)).toList();
        if (ListPage.asked(req)) {
            allocs = ListPage.apply(req, allocs, AllocationState::id, ALLOC_FIELDS, AllocationsHandler::field);
        }
        req.respond(200, allocs.stream().map(shape::stub).toList());
    }

    /** The selectors of {@code GET /v1/allocations?filter=} (docs/ui.md). */
    static final java.util.Set<String> ALLOC_FIELDS = java.util.Set.of("ID", "Name", "JobID", "TaskGroup",
            "ClientStatus", "DesiredStatus", "ClientDescription");

    private static String field(AllocationState a, String name) {
        return switch (name) {
            case "ID" -> a.id();
            case "Name" -> a.name();
            case "JobID" -> a.jobId();
            case "TaskGroup" -> a.taskGroup();
            case "ClientStatus" -> a.clientStatus().wireName();
            case "DesiredStatus" -> a.desiredStatus().wireName();
            case "ClientDescription" -> a.clientDescription();
            default -> null;
        };
    }

    /** Answers Nomad's {@code AllocStopResponse}: {@code EvalID} "" and {@code Index} 0. */
    private void stop(ApiRequest req) throws Exception {
        AllocationState alloc = lookup.find(req.path("id"));
        MDC.put("alloc_id", alloc.id());
        try {
            LOG.info("stop requested over the API");
            engine.stop(alloc.id());
        } finally {
            MDC.remove("alloc_id");
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("EvalID", "");
        out.put("Index", 0);
        req.respond(200, out);
    }

    private void signal(ApiRequest req) throws Exception {
        AllocationState alloc = lookup.find(req.path("id"));
        JsonNode body = Json.parse(req.body());
        if (!body.isObject()) {
            throw ApiException.badRequest("request body must be {\"Signal\": \"SIGUSR1\", \"Task\": \"...\"}");
        }
        JsonNode sig = body.path("Signal");
        String signal = Signals.canonical(sig.isTextual() ? sig.asText() : null)
                .orElseThrow(() -> ApiException.badRequest("Signal: not a known signal: " + sig));
        JsonNode taskNode = body.path("Task");
        String task = taskNode.isTextual() && !taskNode.asText().isEmpty() ? taskNode.asText() : null;
        if (task != null && !alloc.taskStates().containsKey(task)) {
            throw ApiException.badRequest("Task: allocation " + alloc.id() + " has no task " + task);
        }
        if (alloc.terminal()) {
            throw new ApiException(409, "allocation " + alloc.id() + " is " + alloc.clientStatus().wireName()
                    + ": no task to signal");
        }
        if (task != null && alloc.taskStates().get(task).state() != TaskLifeState.RUNNING) {
            throw new ApiException(409, "task " + task + " of allocation " + alloc.id() + " is "
                    + alloc.taskStates().get(task).state().wireName() + ", not running: nothing to signal");
        }
        if (task == null && alloc.taskStates().values().stream().noneMatch(t -> t.state() == TaskLifeState.RUNNING)) {
            throw new ApiException(409, "allocation " + alloc.id() + " has no running task to signal");
        }
        MDC.put("alloc_id", alloc.id());
        MDC.put("task", task == null ? "*" : task);
        try {
            LOG.info("{} requested over the API", signal);
            engine.signal(alloc.id(), task, signal);
        } finally {
            MDC.remove("alloc_id");
            MDC.remove("task");
        }
        req.respond(200, Map.of());
    }
}
