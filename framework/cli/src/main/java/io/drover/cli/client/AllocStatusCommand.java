package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.Specs;
import io.drover.cli.UserException;
import io.drover.cli.format.AllocStatusFormatter;
import io.drover.cli.format.TerminalText;
import io.drover.core.state.AllocationState;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover alloc status [-verbose] [-json] ID}: {@code GET /v1/allocation/:id} (ID or unique prefix).
 * {@code -json} prints the API's body unchanged (so {@code | jq .TaskStates.poststop} works); text is
 * {@link AllocStatusFormatter}'s layout, with the tasks' lifecycle labels read from {@code GET /v1/job/:id}
 * (left out when the job is gone, e.g. purged).
 */
@Command(name = "status",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = AllocStatusCommand.DESCRIPTION)
public final class AllocStatusCommand implements Callable<Integer> {
    static final String DESCRIPTION = "Shows an allocation like 'nomad alloc status -verbose': header, "
            + "each task's state and every event.";
    private static final String VERBOSE = "Accepted for Nomad compatibility: Drover always shows full IDs and "
            + "every event.";
    private static final String JSON = "Print the allocation as the API returned it (Nomad's JSON field names).";
    static final String ID = "Allocation ID or a unique prefix of it.";

    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-verbose", "--verbose"}, description = VERBOSE)
    private boolean verbose;

    @Option(names = {"-json", "--json"}, description = JSON)
    private boolean json;

    @Parameters(index = "0", paramLabel = "ID", description = ID)
    private String id;

    AllocStatusCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The command as picocli sets it from a command line ({@code QuickArgs}: parsed without picocli). */
    public static AllocStatusCommand of(CliContext ctx, ClientOptions api, boolean verbose, boolean json, String id) {
        AllocStatusCommand c = new AllocStatusCommand(ctx);
        c.api = api;
        c.verbose = verbose;
        c.json = json;
        c.id = id;
        return c;
    }

    /** The same model as the annotations', built in code (no reflection: {@link Specs}). */
    public static CommandSpec model(CliContext ctx) {
        AllocStatusCommand c = new AllocStatusCommand(ctx);
        c.api = new ClientOptions();
        CommandSpec spec = Specs.command(c, "status", false, DESCRIPTION);
        // in the fields' order, as picocli reflects them
        c.api.addTo(spec);
        spec.addOption(Specs.flag(() -> c.verbose, v -> c.verbose = v, VERBOSE, "-verbose", "--verbose"));
        spec.addOption(Specs.flag(() -> c.json, v -> c.json = v, JSON, "-json", "--json"));
        spec.addPositional(Specs.positional("0", null, "ID", () -> c.id, v -> c.id = v, ID));
        return Specs.help(spec);
    }

    @Override
    public Integer call() {
        ApiClient client = api.client(ctx);
        String body = client.getText("/v1/allocation/" + encode(id));
        if (json) {
            String safe = TerminalText.escapeJson(body); // the same JSON value, nothing a terminal acts on
            ctx.out().print(safe.endsWith("\n") ? safe : safe + "\n");
            return ExitCodes.OK;
        }
        AllocationState alloc = AllocReader.alloc(body);
        io.drover.cli.Marks.mark("allocation read");
        Map<String, String> labels;
        try {
            labels = AllocReader.labels(client.read("/v1/job/" + encode(alloc.jobId())), alloc.taskGroup());
        } catch (UserException jobGone) {
            labels = Map.of();
        }
        String text = AllocStatusFormatter.format(alloc, ctx.zone(), labels);
        io.drover.cli.Marks.mark("rendered");
        ctx.out().print(text);
        return ExitCodes.OK;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
