package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code drover alloc stop ID}: {@code POST /v1/allocation/:id/stop}; returns once the agent accepted it. */
@Command(name = "stop",
        mixinStandardHelpOptions = true,
        description = "Stops an allocation: its tasks are killed in stop order, then its poststop tasks run.")
public final class AllocStopCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Parameters(index = "0", paramLabel = "ID", description = "Allocation ID or a unique prefix of it.")
    private String id;

    AllocStopCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        api.client(ctx).post("/v1/allocation/" + AllocStatusCommand.encode(id) + "/stop", "");
        ctx.out().println("==> Allocation " + io.drover.cli.format.TerminalText.escape(id) + " stopping");
        return ExitCodes.OK;
    }
}
