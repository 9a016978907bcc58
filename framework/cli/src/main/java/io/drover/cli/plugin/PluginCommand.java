package io.drover.cli.plugin;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code drover plugin}: a group of plugin commands; alone it shows its usage (exit code 2). */
@Command(name = "plugin",
        mixinStandardHelpOptions = true,
        description = PluginCommand.SUMMARY,
        subcommands = {PluginStatusCommand.class, PluginInitCommand.class})
public final class PluginCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Driver plugin commands.";

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return io.drover.cli.ExitCodes.USAGE;
    }
}
