package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.Specs;
import io.drover.cli.format.Columns;
import io.drover.cli.format.Times;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code drover job status [ID]}: without an ID a table of every job ({@code GET /v1/jobs}); with one, the job's
 * header and its allocations ({@code GET /v1/job/:id}, {@code GET /v1/job/:id/allocations}).
 */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        description = JobStatusCommand.DESCRIPTION)
public final class JobStatusCommand implements Callable<Integer> {
    static final String DESCRIPTION = "Lists the agent's jobs, or shows one job and its allocations.";
    private static final String ID = "A job ID; without it: every job.";

    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = ID)
    private String id;

    JobStatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The command as picocli sets it from a command line ({@code QuickArgs}: parsed without picocli). */
    public static JobStatusCommand of(CliContext ctx, ClientOptions api, String id) {
        JobStatusCommand c = new JobStatusCommand(ctx);
        c.api = api;
        c.id = id;
        return c;
    }

    /** The same model as the annotations', built in code (no reflection: {@link Specs}). */
    public static CommandSpec model(CliContext ctx) {
        JobStatusCommand c = new JobStatusCommand(ctx);
        c.api = new ClientOptions();
        CommandSpec spec = Specs.command(c, "status", true, DESCRIPTION);
        c.api.addTo(spec); // in the fields' order, as picocli reflects them
        spec.addPositional(Specs.positional("0", "0..1", "ID", () -> c.id, v -> c.id = v, ID));
        return Specs.help(spec);
    }

    @Override
    public Integer call() {
        ApiClient client = api.client(ctx);
        if (id == null) {
            Json jobs = client.read("/v1/jobs");
            if (jobs.isEmpty()) {
                ctx.out().println("No running jobs");
                return ExitCodes.OK;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"ID", "Type", "Status", "Running", "Complete", "Failed"});
            for (Json j : jobs) {
                Json n = j.path("Allocations");
                rows.add(new String[] {j.path("ID").asText(), j.path("Type").asText(), status(j),
                    n.path("Running").asText(), n.path("Complete").asText(), n.path("Failed").asText()});
            }
            ctx.out().print(Columns.table(rows));
            return ExitCodes.OK;
        }
        String path = "/v1/job/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
        Json job = client.read(path);
        Json allocs = client.read(path + "/allocations");
        List<String[]> kv = new ArrayList<>();
        kv.add(new String[] {"ID", job.path("ID").asText()});
        kv.add(new String[] {"Name", job.path("Name").asText()});
        kv.add(new String[] {"Type", job.path("Type").asText()});
        kv.add(new String[] {"Version", job.path("Version").asText()});
        kv.add(new String[] {"Status", status(job)});
        StringBuilder sb = new StringBuilder(Columns.keyValues(kv));
        sb.append("\nAllocations\n");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"ID", "Task Group", "Desired", "Status", "Created"});
        for (Json a : allocs) {
            String aid = a.path("ID").asText();
            rows.add(new String[] {aid.substring(0, Math.min(8, aid.length())), a.path("TaskGroup").asText(),
                a.path("DesiredStatus").asText(), a.path("ClientStatus").asText(),
                Times.local(a.path("CreateTime").asLong(), ctx.zone())});
        }
        sb.append(Columns.table(rows));
        ctx.out().print(sb);
        return ExitCodes.OK;
    }

    private static String status(Json job) {
        return job.path("Status").asText() + (job.path("Stop").asBoolean() ? " (stopped)" : "");
    }
}
