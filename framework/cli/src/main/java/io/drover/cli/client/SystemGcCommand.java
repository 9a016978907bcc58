package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code drover system gc}: {@code PUT /v1/system/gc}, asks the agent to run garbage collection now. */
@Command(name = "gc",
        mixinStandardHelpOptions = true,
        description = "Asks the agent to garbage-collect terminal allocations now.")
public final class SystemGcCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    SystemGcCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        api.client(ctx).put("/v1/system/gc", "");
        ctx.out().println("==> Garbage collection requested");
        return ExitCodes.OK;
    }
}
