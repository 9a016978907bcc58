package io.drover.cli;

import io.drover.cli.agent.AgentCommand;
import io.drover.cli.bench.BenchCommand;
import io.drover.cli.client.AllocCommand;
import io.drover.cli.client.JobCommand;
import io.drover.cli.client.SystemCommand;
import io.drover.cli.plugin.PluginCommand;
import io.drover.cli.run.RunCommand;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * The {@code drover} command. {@link #execute(String[], CliContext)} runs one command line in-process and returns
 * its exit code ({@link ExitCodes}); {@link #main} is the launcher's entry and exits with it.
 */
@Command(name = "drover",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = Main.DESCRIPTION,
        footer = {"", Main.EXIT_CODES, Main.ADDRESS, Main.DEBUG})
public final class Main implements Callable<Integer> {
    static final String DESCRIPTION = "Drover runs jobs of tasks through driver plugins, with Nomad's task "
            + "lifecycle.";
    static final String EXIT_CODES = "Exit codes: 0 ok, 1 an allocation failed, no agent or an agent error, 2 bad "
            + "input (usage, job file, config, driver).";
    static final String ADDRESS = "Client commands find the agent at -address, else DROVER_ADDR, else "
            + "http://127.0.0.1:4747.";
    static final String DEBUG = "Set DROVER_DEBUG=1 to see stack traces of unexpected errors.";
    /**
     * The subcommands by name. Only the one a command line invokes is built: picocli builds a command's model by
     * reflection, and building every subcommand cost ~80 ms of {@code drover run}'s start-up.
     */
    private static final Map<String, Class<?>> SUBCOMMANDS = subcommands();
    /**
     * picocli's default factory looks up {@code groovy.lang.Closure} once ({@code Class.forName}) unless this
     * property is set: a class that is not there, so the class loader opened every jar of the CLI's ~58-jar class
     * path to look for it, 30-40 ms of CPU of every command even with the archive, which otherwise opens no jar at
     * all (docs/performance.md, "Session 11"). Drover has no Groovy: the closures are never used. Set before
     * picocli's first use (this class's initialisation precedes it); a value given with -D is kept.
     */
    static final String PICOCLI_CLOSURES = "picocli.disable.closures";

    static {
        System.getProperties().putIfAbsent(PICOCLI_CLOSURES, "true");
    }

    /** The root's own options: its usage or version never needs a command's model. */
    static final java.util.Set<String> ROOT_HELP = java.util.Set.of("-h", "--help", "-V", "--version");

    private static Map<String, Class<?>> subcommands() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("run", RunCommand.class);
        m.put("agent", AgentCommand.class);
        m.put("job", JobCommand.class);
        m.put("alloc", AllocCommand.class);
        m.put("system", SystemCommand.class);
        m.put("plugin", PluginCommand.class);
        m.put("bench", BenchCommand.class);
        m.put("nomad-plugin", io.drover.cli.nomad.NomadPluginCommand.class);
        m.put("help", CommandLine.HelpCommand.class);
        return m;
    }

    @Spec
    private CommandLine.Model.CommandSpec spec;

    /** The root's model built in code ({@link CodeModels}): the annotations' without reflection. */
    static CommandLine.Model.CommandSpec model() {
        Main main = new Main();
        CommandLine.Model.CommandSpec spec = Specs.command(main, "drover", true, DESCRIPTION);
        spec.versionProvider(new VersionProvider());
        spec.usageMessage().footer("", EXIT_CODES, ADDRESS, DEBUG);
        main.spec = spec;
        return Specs.help(spec);
    }

    /** No subcommand: show the usage and fail as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    public static void main(String[] args) {
        Marks.mark("main");
        System.exit(execute(args, CliContext.system()));
    }

    /** Runs one command line with captured streams (for tests); never a terminal. */
    public static int execute(String[] args, PrintStream out, PrintStream err) {
        return execute(args, CliContext.of(out, err));
    }

    public static int execute(String[] args, CliContext ctx) {
        Integer rootHelp = RootUsage.print(args, ctx);
        if (rootHelp != null) {
            ctx.out().flush();
            ctx.err().flush();
            Marks.mark("done, exit " + rootHelp);
            return rootHelp;
        }
        ErrorHandler errors = new ErrorHandler(ctx);
        Callable<Integer> quick = QuickArgs.command(args, ctx);
        if (quick != null) {
            Marks.mark("parsed by hand");
            int code = callQuick(quick, errors);
            ctx.out().flush();
            ctx.err().flush();
            Marks.mark("done, exit " + code);
            return code;
        }
        CommandLine cmd = build(args, ctx);
        cmd.setOut(new java.io.PrintWriter(ctx.out(), true))
                .setErr(new java.io.PrintWriter(ctx.err(), true))
                .setExecutionExceptionHandler(errors)
                .setParameterExceptionHandler(errors)
                .setCaseInsensitiveEnumValuesAllowed(true);
        if (Marks.on()) {
            Marks.mark("model built");
            cmd.setExecutionStrategy(new MarkedRunLast());
        }
        int code = cmd.execute(args);
        ctx.out().flush();
        ctx.err().flush();
        Marks.mark("done, exit " + code);
        return code;
    }

    /**
     * What picocli's execution does with a parsed command: its exit code is what {@code call} returns; an exception
     * it throws is the {@link ErrorHandler}'s (which reads neither the command line nor the parse result).
     */
    private static int callQuick(Callable<Integer> command, ErrorHandler errors) {
        try {
            Integer code = command.call();
            return code == null ? ExitCodes.OK : code;
        } catch (Exception e) {
            return errors.handleExecutionException(e, null, null);
        }
    }

    /** picocli's default strategy, with a {@link Marks mark} once the command line is parsed. */
    private static final class MarkedRunLast implements CommandLine.IExecutionStrategy {
        @Override
        public int execute(CommandLine.ParseResult parsed) {
            Marks.mark("parsed");
            return new CommandLine.RunLast().execute(parsed);
        }
    }

    /** Every command and subcommand (for {@link CdsTraining}'s list of helps). */
    static CommandLine model(CliContext ctx) {
        CommandLine cmd = new CommandLine(new Main(), new ContextFactory(ctx));
        ContextFactory factory = new ContextFactory(ctx);
        SUBCOMMANDS.forEach((name, type) -> cmd.addSubcommand(name, create(factory, type)));
        return cmd;
    }

    /**
     * The model of the command line: the root's usage and version and the most used client commands are built in
     * code ({@link CodeModels}: no annotation reflection); otherwise, when it names a command (and a subcommand of
     * a group such as {@code alloc stop}), only that one is built from its annotations; else (a usage error,
     * {@code drover help}) every command is.
     */
    private static CommandLine build(String[] args, CliContext ctx) {
        ContextFactory factory = new ContextFactory(ctx);
        CommandLine inCode = CodeModels.forArgs(args, ctx, factory);
        if (inCode != null) {
            return inCode;
        }
        CommandLine cmd = new CommandLine(new Main(), factory);
        // before setOut/setErr and the handlers: picocli hands them down to the subcommands present then
        Class<?> only = args.length > 0 ? SUBCOMMANDS.get(args[0]) : null;
        if (only != null && only != CommandLine.HelpCommand.class) {
            cmd.addSubcommand(args[0], args.length > 1 ? group(factory, only, args[1]) : create(factory, only));
        } else {
            SUBCOMMANDS.forEach((name, type) -> cmd.addSubcommand(name, create(factory, type)));
        }
        return cmd;
    }

    /**
     * A group command ({@code alloc}, {@code job}, ...) with only the subcommand {@code name} of its
     * {@code @Command(subcommands)}, when it has one of that name or alias; else the whole command. A group is
     * only run with no subcommand (it prints its usage), which builds it whole: the reduced model never shows.
     */
    private static CommandLine group(ContextFactory factory, Class<?> type, String name) {
        Command group = type.getAnnotation(Command.class);
        for (Class<?> sub : group == null ? new Class<?>[0] : group.subcommands()) {
            Command c = sub.getAnnotation(Command.class);
            if (c != null && (c.name().equals(name) || java.util.Arrays.asList(c.aliases()).contains(name))) {
                CommandLine.Model.CommandSpec spec = CommandLine.Model.CommandSpec.wrapWithoutInspection(
                        newInstance(factory, type)).name(group.name());
                CommandLine reduced = new CommandLine(spec, factory);
                reduced.addSubcommand(c.name(), create(factory, sub), c.aliases());
                return reduced;
            }
        }
        return create(factory, type);
    }

    private static Object newInstance(ContextFactory factory, Class<?> type) {
        try {
            return factory.create(type);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create command " + type.getName(), e);
        }
    }

    private static CommandLine create(ContextFactory factory, Class<?> type) {
        try {
            return new CommandLine(factory.create(type), factory);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create command " + type.getName(), e);
        }
    }
}
