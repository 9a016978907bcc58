package io.drover.cli;

import io.drover.cli.agent.AgentCommand;
import io.drover.cli.bench.BenchCommand;
import io.drover.cli.client.AllocCommand;
import io.drover.cli.client.AllocLogsCommand;
import io.drover.cli.client.AllocStatusCommand;
import io.drover.cli.client.JobCommand;
import io.drover.cli.client.JobStatusCommand;
import io.drover.cli.client.SystemCommand;
import io.drover.cli.nomad.NomadPluginCommand;
import io.drover.cli.plugin.PluginCommand;
import io.drover.cli.plugin.PluginStatusCommand;
import io.drover.cli.run.RunCommand;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The command lines whose models are built in code ({@link Specs}) instead of from annotations: the root's usage
 * and version, and the client commands users run most ({@code alloc status}, {@code alloc logs},
 * {@code job status}, {@code plugin status}). picocli's annotation reflection (proxy classes generated for its
 * annotation types, every field of the command classes inspected) cost ~50 ms of CPU of each of these calls
 * (docs/performance.md, "Client commands"). Every other command line gets the annotated models (Main). Since
 * session 12 most of these command lines never get here: {@link RootUsage} prints the root's usage and version and
 * {@link QuickArgs} parses the valid hot command lines, both without picocli; these models remain for a help
 * request or a usage error of those commands, and as the reference the tests hold the hand-made forms to.
 * {@code ProgrammaticModelTest} holds the two forms equal. Called on the main thread, once per command line.
 */
final class CodeModels {
    /** "group subcommand" -> its model in code. */
    private static final Map<String, Function<CliContext, CommandSpec>> SUBCOMMANDS = Map.of(
            "alloc status", AllocStatusCommand::model,
            "alloc logs", AllocLogsCommand::model,
            "job status", JobStatusCommand::model,
            "plugin status", PluginStatusCommand::model);
    /** The groups of those subcommands. */
    private static final Map<String, Supplier<Object>> GROUPS = Map.of(
            "alloc", AllocCommand::new, "job", JobCommand::new, "plugin", PluginCommand::new);

    private CodeModels() {}

    /** The model for {@code args} when it is built in code, else null (the caller builds it from annotations). */
    static CommandLine forArgs(String[] args, CliContext ctx, CommandLine.IFactory factory) {
        if (args.length == 0 || (args.length == 1 && Main.ROOT_HELP.contains(args[0]))) {
            CommandLine root = new CommandLine(Main.model(), factory);
            listed().forEach((name, spec) -> root.addSubcommand(name, new CommandLine(spec, factory)));
            return root;
        }
        Function<CliContext, CommandSpec> sub = args.length > 1 ? SUBCOMMANDS.get(args[0] + " " + args[1]) : null;
        if (sub == null) {
            return null;
        }
        // as Main's reduced group: the group with only the subcommand named (the group's own usage never shows)
        CommandLine group = new CommandLine(CommandSpec.wrapWithoutInspection(GROUPS.get(args[0]).get())
                .name(args[0]), factory);
        group.addSubcommand(args[1], new CommandLine(sub.apply(ctx), factory));
        CommandLine root = new CommandLine(Main.model(), factory);
        root.addSubcommand(args[0], group);
        return root;
    }

    /** Each command as the root's usage lists it (Main's order): its name and the first line of its description. */
    static Map<String, CommandSpec> listed() {
        Map<String, CommandSpec> m = new LinkedHashMap<>();
        m.put("run", summary("run", RunCommand.SUMMARY));
        m.put("agent", summary("agent", AgentCommand.SUMMARY));
        m.put("job", summary("job", JobCommand.SUMMARY));
        m.put("alloc", summary("alloc", AllocCommand.SUMMARY));
        m.put("system", summary("system", SystemCommand.SUMMARY));
        m.put("plugin", summary("plugin", PluginCommand.SUMMARY));
        m.put("bench", summary("bench", BenchCommand.SUMMARY));
        m.put("nomad-plugin", summary("nomad-plugin", NomadPluginCommand.SUMMARY));
        CommandSpec help = CommandSpec.create().name("help");
        help.usageMessage().header(HELP_HEADER);
        m.put("help", help);
        return m;
    }

    /** picocli's HelpCommand's header (its annotation's), which the root's usage lists for {@code help}. */
    static final String HELP_HEADER = "Display help information about the specified command.";

    private static CommandSpec summary(String name, String description) {
        CommandSpec spec = CommandSpec.create().name(name);
        spec.usageMessage().description(description);
        return spec;
    }
}
