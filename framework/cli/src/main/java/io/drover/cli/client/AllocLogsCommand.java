package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover alloc logs [-stderr] [-f] ID TASK}: the task's log bytes, unframed
 * ({@code GET /v1/client/fs/logs/:alloc?plain=true}), copied to stdout as they arrive; {@code -f} follows until
 * the task ends or Ctrl-C.
 */
@Command(name = "logs",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = "Prints a task's stdout (or stderr) log; -f follows it.")
public final class AllocLogsCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-stderr", "--stderr"}, description = "Print the task's stderr instead of its stdout.")
    private boolean stderr;

    @Option(names = {"-f", "--f"}, description = "Follow: keep printing new output until the task ends.")
    private boolean follow;

    @Parameters(index = "0", paramLabel = "ID", description = "Allocation ID or a unique prefix of it.")
    private String id;

    @Parameters(index = "1", paramLabel = "TASK", description = "The task whose log to print.")
    private String task;

    AllocLogsCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws IOException {
        String path = "/v1/client/fs/logs/" + AllocStatusCommand.encode(id) + "?task="
                + AllocStatusCommand.encode(task) + "&type=" + (stderr ? "stderr" : "stdout")
                + "&plain=true&origin=start&offset=0" + (follow ? "&follow=true" : "");
        try (InputStream in = api.client(ctx).stream(path)) {
            byte[] buf = new byte[8192];
            for (int n; (n = in.read(buf)) >= 0; ) {
                ctx.out().write(buf, 0, n);
                ctx.out().flush();
            }
        }
        return ExitCodes.OK;
    }
}
