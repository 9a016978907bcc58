package io.drover.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import io.drover.cli.format.TerminalText;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover job run [-detach] FILE}: parses the file here (a bad file is a {@code file:line} error, exit 2,
 * and nothing is sent), registers it with {@code PUT /v1/jobs} — a {@code .json} file as it is, an HCL file as
 * {@code {"JobHCL": "<text>"}} which the agent parses with the same parser — and, unless {@code -detach}, polls
 * every placed allocation until it has settled, printing one line per allocation: a batch job's allocation when it
 * is terminal, a service job's once it is running (a service never ends on its own; Nomad's {@code job run} also
 * returns once a service is deployed). Exit 1 when one failed.
 */
@Command(name = "run",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {"Registers a job with the agent and (unless -detach) waits until every allocation it "
                + "placed is complete or failed (a service job's: running, complete or failed), printing one line "
                + "per allocation."},
        footer = {"", "Exit codes: 0 every allocation complete, or running for a service job (or -detach), 1 an "
                + "allocation failed or no agent, 2 bad job file."})
public final class JobRunCommand implements Callable<Integer> {
    static final long POLL_MILLIS = 200;

    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Mixin
    private io.drover.cli.VarOptions vars;

    @Option(names = {"-detach", "--detach"},
            description = "Return once the allocations are placed (prints their IDs) instead of waiting for them.")
    private boolean detach;

    @Parameters(index = "0", paramLabel = "FILE",
            description = "Job file: Nomad jobspec HCL (.hcl) or Nomad API JSON (.json).")
    private Path file;

    JobRunCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new JobFileException(file.toString(), 0, "",
                    Files.exists(file) ? "not a regular file" : "no such file");
        }
        io.drover.core.spec.parse.hcl.HclInputs inputs = vars.inputs(ctx);
        Job job = JobFileParser.parse(file, inputs); // file:line errors before anything is sent
        ApiClient client = api.client(ctx);
        JsonNode reg = client.put("/v1/jobs", body(file, inputs));
        List<String> ids = new ArrayList<>();
        reg.path("Allocations").forEach(n -> ids.add(n.asText()));
        ctx.err().println("==> Job \"" + TerminalText.escape(job.id()) + "\" registered: " + ids.size() + " allocation(s) placed");
        ParentNotes.print(ctx, job);
        if (!reg.path("PlacementFailures").isEmpty()) { // constraints this node fails, in Nomad's words
            ctx.err().println("==> Failed to place all allocations on this node:");
            reg.path("PlacementFailures").forEach(l -> ctx.err().println("    " + TerminalText.escape(l.asText())));
        }
        if (detach) {
            ids.forEach(i -> ctx.out().println(TerminalText.escape(i)));
            return ExitCodes.OK;
        }
        boolean service = !job.type().runsToCompletion(); // service and system tasks run until stopped
        boolean failed = false;
        for (String id : ids) {
            JsonNode alloc = awaitSettled(client, id, service);
            String status = alloc.path("ClientStatus").asText();
            failed |= "failed".equals(status);
            ctx.out().println(TerminalText.escape(id.substring(0, Math.min(8, id.length())) + "  "
                    + alloc.path("Name").asText() + "  " + status));
        }
        return failed ? ExitCodes.FAILED : ExitCodes.OK;
    }

    /**
     * The register request: a JSON file as it is; an HCL file evaluated here (its variables from
     * {@code inputs}, its {@code file()} calls read beside it) and sent as the literal text
     * {@code {"JobHCL": ..., "Evaluated": true, "JobFile": "<name>"}}, each item on its line of the file, so
     * that the agent's messages name the user's file and lines.
     */
    static String body(Path file, io.drover.core.spec.parse.hcl.HclInputs inputs) throws Exception {
        if (file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json")) {
            return Files.readString(file, StandardCharsets.UTF_8);
        }
        ObjectNode o = ApiClient.JSON.createObjectNode();
        o.put("JobHCL", JobFileParser.evaluatedText(file, inputs));
        o.put("Evaluated", true);
        o.put("JobFile", file.getFileName().toString());
        return o.toString();
    }

    /** Polls until the allocation is terminal or, for a service job ({@code service}), running. */
    private static JsonNode awaitSettled(ApiClient client, String id, boolean service) throws InterruptedException {
        while (true) {
            JsonNode a = client.get("/v1/allocation/" + id);
            String s = a.path("ClientStatus").asText();
            if ("complete".equals(s) || "failed".equals(s) || (service && "running".equals(s))) {
                return a;
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
