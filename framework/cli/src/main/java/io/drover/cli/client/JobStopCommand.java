package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover job stop [-purge] ID}: {@code DELETE /v1/job/:id}; every allocation of the job is stopped (its
 * poststop tasks run). Returns once the agent accepted the stop, not when the allocations are dead.
 */
@Command(name = "stop",
        mixinStandardHelpOptions = true,
        description = "Stops every allocation of a job (poststop tasks still run); the job stays listed as stopped.")
public final class JobStopCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-purge", "--purge"},
            description = "Also forget the job (its allocations stay readable by ID).")
    private boolean purge;

    @Parameters(index = "0", paramLabel = "ID", description = "The job ID.")
    private String id;

    JobStopCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        api.client(ctx).delete("/v1/job/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20")
                + (purge ? "?purge=true" : ""));
        ctx.out().println("==> Job \"" + io.drover.cli.format.TerminalText.escape(id) + "\" stopped" + (purge ? " and purged" : ""));
        return ExitCodes.OK;
    }
}
