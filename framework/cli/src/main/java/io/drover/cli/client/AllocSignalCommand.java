package io.drover.cli.client;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code drover alloc signal [-s SIG] ID [TASK]}: {@code POST /v1/client/allocation/:id/signal}. */
@Command(name = "signal",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Sends a signal to a task of an allocation, or to every running task when TASK is left out.")
public final class AllocSignalCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-s", "--s"}, paramLabel = "SIG", defaultValue = "SIGKILL",
            description = "The signal, e.g. SIGHUP or SIGUSR1 (default: ${DEFAULT-VALUE}, as Nomad).")
    private String signal;

    @Parameters(index = "0", paramLabel = "ID", description = "Allocation ID or a unique prefix of it.")
    private String id;

    @Parameters(index = "1", arity = "0..1", paramLabel = "TASK", description = "The task; default every task.")
    private String task;

    AllocSignalCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ObjectNode body = ApiClient.JSON.createObjectNode().put("Signal", signal);
        if (task != null) {
            body.put("Task", task);
        }
        api.client(ctx).post("/v1/client/allocation/" + AllocStatusCommand.encode(id) + "/signal",
                body.toString());
        ctx.out().println(io.drover.cli.format.TerminalText.escape("==> " + signal + " sent to "
                + (task == null ? "every running task" : "task " + task) + " of allocation " + id));
        return ExitCodes.OK;
    }
}
