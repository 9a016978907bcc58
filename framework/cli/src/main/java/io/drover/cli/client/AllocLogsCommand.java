package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.Specs;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
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
        description = AllocLogsCommand.DESCRIPTION)
public final class AllocLogsCommand implements Callable<Integer> {
    static final String DESCRIPTION = "Prints a task's stdout (or stderr) log; -f follows it.";
    private static final String STDERR = "Print the task's stderr instead of its stdout.";
    private static final String FOLLOW = "Follow: keep printing new output until the task ends.";
    private static final String TASK = "The task whose log to print.";

    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-stderr", "--stderr"}, description = STDERR)
    private boolean stderr;

    @Option(names = {"-f", "--f"}, description = FOLLOW)
    private boolean follow;

    @Parameters(index = "0", paramLabel = "ID", description = AllocStatusCommand.ID)
    private String id;

    @Parameters(index = "1", paramLabel = "TASK", description = TASK)
    private String task;

    AllocLogsCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    /** The command as picocli sets it from a command line ({@code QuickArgs}: parsed without picocli). */
    public static AllocLogsCommand of(CliContext ctx, ClientOptions api, boolean stderr, boolean follow, String id,
            String task) {
        AllocLogsCommand c = new AllocLogsCommand(ctx);
        c.api = api;
        c.stderr = stderr;
        c.follow = follow;
        c.id = id;
        c.task = task;
        return c;
    }

    /** The same model as the annotations', built in code (no reflection: {@link Specs}). */
    public static CommandSpec model(CliContext ctx) {
        AllocLogsCommand c = new AllocLogsCommand(ctx);
        c.api = new ClientOptions();
        CommandSpec spec = Specs.command(c, "logs", false, DESCRIPTION);
        // in the fields' order, as picocli reflects them
        c.api.addTo(spec);
        spec.addOption(Specs.flag(() -> c.stderr, v -> c.stderr = v, STDERR, "-stderr", "--stderr"));
        spec.addOption(Specs.flag(() -> c.follow, v -> c.follow = v, FOLLOW, "-f", "--f"));
        spec.addPositional(Specs.positional("0", null, "ID", () -> c.id, v -> c.id = v, AllocStatusCommand.ID));
        spec.addPositional(Specs.positional("1", null, "TASK", () -> c.task, v -> c.task = v, TASK));
        return Specs.help(spec);
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
