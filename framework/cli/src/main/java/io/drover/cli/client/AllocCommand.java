package io.drover.cli.client;

import io.drover.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code drover alloc}: alloc commands against a running agent; alone it shows its usage (exit code 2). */
@Command(name = "alloc",
        mixinStandardHelpOptions = true,
        description = AllocCommand.SUMMARY,
        subcommands = {AllocStatusCommand.class, AllocLogsCommand.class, AllocStopCommand.class,
            AllocSignalCommand.class})
public final class AllocCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Allocation commands (talk to a running agent).";

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
