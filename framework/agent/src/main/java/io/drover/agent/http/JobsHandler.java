package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.agent.JobRegistry;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobDriverCheck;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Job routes: {@code PUT|POST /v1/jobs} (register), {@code GET /v1/jobs}, {@code GET|DELETE /v1/job/:id},
 * {@code GET /v1/job/:id/allocations}. Runs on server threads; never blocks on a task.
 */
public final class JobsHandler {
    private static final Logger LOG = LoggerFactory.getLogger(JobsHandler.class);

    /** Below the CLI's 30 s request timeout, so that a slow (not failing) disk still gets this line across. */
    private static final java.time.Duration RECORDED_TIMEOUT = java.time.Duration.ofSeconds(20);

    /** How often a registration waiting for the disk looks whether the store stalled meanwhile. */
    private static final long STALL_POLL_MILLIS = 20;

    private final JobRegistry registry;
    private final DriverCatalog drivers;
    private final Supplier<Optional<String>> writesRefused;

    /**
     * @param writesRefused why the agent cannot record changes now (empty when it can); a registration waiting
     *     for its allocations to be recorded answers 503 with that line as soon as it appears
     */
    private final AllocJson allocJson;

    JobsHandler(JobRegistry registry, DriverCatalog drivers, Supplier<Optional<String>> writesRefused,
            AllocJson allocJson) {
        this.registry = registry;
        this.drivers = drivers;
        this.writesRefused = writesRefused;
        this.allocJson = allocJson;
    }

    public void addRoutes(Router router) {
        router.add("PUT,POST", "/v1/jobs", this::register)
                .add("GET", "/v1/jobs", this::list)
                .add("GET", "/v1/job/:id", this::read)
                .add("DELETE", "/v1/job/:id", this::stop)
                .add("GET", "/v1/job/:id/allocations", this::allocations);
    }

    /**
     * Body: Nomad's register request {@code {"Job": {...}}}, or Drover's {@code {"JobHCL": "<jobspec text>"}}
     * ({@link JobHclRequest}: with {@code "Evaluated": true} and {@code "JobFile"} from {@code drover job run})
     * parsed as HCL under the name {@code request.hcl} (what {@code drover job run} sends for an HCL file, so the
     * agent's one parser reads both shapes and no HCL-to-JSON converter has to be kept in step with it). Answers Nomad's {@code JobRegisterResponse} fields
     * {@code EvalID} (always "": Drover has no evaluations), {@code EvalCreateIndex} (0), {@code JobModifyIndex}
     * and {@code Index} (the registry's index of this registration), {@code Warnings} (""), plus Drover's
     * {@code Allocations}: the ids placed, so a client needs no evaluation to find them.
     */
    private void register(ApiRequest req) throws Exception {
        byte[] body = req.body();
        JsonNode tree = Json.parse(body); // syntax, depth and size checked before the parser sees it
        boolean hcl = tree.isObject() && tree.path("JobHCL").isTextual();
        if (!hcl && (!tree.isObject() || !tree.path("Job").isObject())) {
            throw ApiException.badRequest("request body must be {\"Job\": {...}} (Nomad's API JSON) or "
                    + "{\"JobHCL\": \"<jobspec>\"}");
        }
        RegisterRequest options = RegisterRequest.of(tree);
        if (!hcl && options.hasOptions()) {
            body = options.jobOnly(); // the parser reads {"Job": ...}; Nomad's request fields are read here
        }
        Job job;
        List<JobFileException> problems;
        try {
            job = hcl ? JobHclRequest.parse(tree) : JobFileParser.parse("request.json", body);
            problems = new java.util.ArrayList<>(JobDriverCheck.check(job, drivers));
        } catch (JobFileException e) {
            throw ApiException.badRequest(lines(e.problems()));
        }
        registry.limits().perJobProblem(job).ifPresent(p -> problems.add(
                new JobFileException(job.source(), 0, "job \"" + job.id() + "\"", p)));
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(lines(problems));
        }
        JobRegistry.Registration reg;
        try {
            reg = registry.register(job, options.enforceIndex());
        } catch (JobRegistry.IndexConflictException e) {
            throw new ApiException(409, "job " + job.id() + ": " + e.getMessage());
        } catch (JobRegistry.TooManyTasksException e) {
            // not bad input: the same job is accepted once some allocations have ended
            throw new ApiException(429, "job " + job.id() + ": " + e.getMessage());
        } catch (IllegalStateException e) {
            throw new ApiException(503, "agent is shutting down");
        }
        awaitRecorded(registry, writesRefused, reg, job);
        LOG.info("job {} registered (version {}): {} allocation(s)", job.id(), reg.entry().version(),
                reg.placed().size());
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("EvalID", reg.eval() == null ? "" : reg.eval().id());
        out.put("EvalCreateIndex", reg.eval() == null ? 0 : reg.eval().createIndex());
        out.put("JobModifyIndex", reg.entry().jobModifyIndex());
        out.put("Index", reg.entry().modifyIndex());
        out.put("Warnings", "");
        req.setHeader("X-Nomad-Index", Long.toString(reg.entry().modifyIndex()));
        out.put("Allocations", reg.placed().stream().map(AllocationState::id).toList());
        // Drover's: what this node did not place and why, in the words of Nomad's `job run` monitor
        out.put("PlacementFailures", reg.eval() == null ? List.of() : reg.eval().failed().stream()
                .flatMap(g -> g.failures().stream()).toList());
        req.respond(200, out);
    }

    /** A 400's error text: every problem of the job, one per line, so that a client can show each on its own. */
    private static String lines(List<JobFileException> problems) {
        return problems.stream().map(Exception::getMessage).collect(Collectors.joining("\n"));
    }

    /**
     * The ids answered must survive a kill -9: waits (a group commit, milliseconds) until they are on disk. When
     * data_dir refuses the write meanwhile, answers the store's 503 line at once instead of making the client
     * time out; the allocations stay held and run once the disk takes writes, and registering the same job again
     * places nothing more ({@link JobRegistry#register}), so the client's retry is safe.
     */
    static void awaitRecorded(JobRegistry registry, Supplier<Optional<String>> writesRefused,
            JobRegistry.Registration reg, Job job) throws Exception {
        CompletableFuture<Void> recorded = registry.recorded(reg);
        long deadline = System.nanoTime() + RECORDED_TIMEOUT.toNanos();
        while (true) {
            try {
                recorded.get(STALL_POLL_MILLIS, TimeUnit.MILLISECONDS);
                return;
            } catch (ExecutionException e) {
                throw new ApiException(503, "job " + job.id() + " placed, but its allocations were not recorded "
                        + "on disk");
            } catch (TimeoutException e) {
                Optional<String> why = writesRefused.get();
                if (why.isPresent()) {
                    throw new ApiException(503, why.get() + "; job " + job.id() + " is held in memory and runs once "
                            + "the disk takes writes (running the same job again does not place it twice)");
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new ApiException(503, "job " + job.id() + " placed, but its allocations were not recorded "
                            + "on disk within " + RECORDED_TIMEOUT.toSeconds() + " s");
                }
            }
        }
    }

    private void list(ApiRequest req) throws Exception {
        String prefix = req.query("prefix");
        List<JobRegistry.Entry> entries = registry.jobs().stream()
                .filter(e -> prefix == null || e.job().id().startsWith(prefix)).toList();
        if (ListPage.asked(req)) {
            entries = ListPage.apply(req, entries, e -> e.job().id(), JOB_FIELDS, this::jobField);
        }
        req.respond(200, entries.stream().map(e -> JobJson.stub(registry, e)).toList());
    }

    /** The selectors of {@code GET /v1/jobs?filter=} (docs/ui.md). */
    static final java.util.Set<String> JOB_FIELDS = java.util.Set.of("ID", "Name", "Type", "Status", "Stop");

    private String jobField(JobRegistry.Entry e, String name) {
        return switch (name) {
            case "ID" -> e.job().id();
            case "Name" -> e.job().name();
            case "Type" -> e.job().type().wireName();
            case "Status" -> registry.status(e);
            case "Stop" -> String.valueOf(e.stopped());
            default -> null;
        };
    }

    private void read(ApiRequest req) throws Exception {
        req.respond(200, JobJson.full(registry, entry(req)));
    }

    /**
     * Nomad's deregister: the job stays listed with {@code Stop: true}, or with {@code ?purge=true} is
     * forgotten (its allocations stay readable by id).
     */
    private void stop(ApiRequest req) throws Exception {
        String id = entry(req).job().id();
        JobRegistry.Entry stopped = (req.queryFlag("purge") ? registry.purge(id) : registry.stop(id))
                .orElseThrow(() -> ApiException.notFound("job not found: " + id));
        Map<String, Object> out = new LinkedHashMap<>();
        Optional<io.drover.agent.Evaluations.Evaluation> eval = registry.evaluations().ofJob(id).stream()
                .reduce((a, b) -> b);
        out.put("EvalID", eval.map(io.drover.agent.Evaluations.Evaluation::id).orElse(""));
        out.put("EvalCreateIndex", eval.map(io.drover.agent.Evaluations.Evaluation::createIndex).orElse(0L));
        out.put("JobModifyIndex", stopped.jobModifyIndex());
        out.put("Index", stopped.modifyIndex());
        req.setHeader("X-Nomad-Index", Long.toString(stopped.modifyIndex()));
        req.respond(200, out);
    }

    private void allocations(ApiRequest req) throws Exception {
        req.respond(200, registry.listedAllocations(entry(req)).stream().map(allocJson::stub).toList());
    }

    private JobRegistry.Entry entry(ApiRequest req) throws ApiException {
        String id = req.path("id");
        return registry.job(id).orElseThrow(() -> ApiException.notFound("job not found: " + id));
    }
}
