package io.drover.cli;

import io.drover.cli.client.AllocLogsCommand;
import io.drover.cli.client.AllocStatusCommand;
import io.drover.cli.client.ClientOptions;
import io.drover.cli.client.JobStatusCommand;
import io.drover.cli.plugin.PluginStatusCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The hot read-only command lines parsed by hand, without picocli: {@code alloc status}, {@code alloc logs},
 * {@code job status} and {@code plugin status} with only the options that name an agent or pick what to print.
 * picocli's first use (its classes, the model, the parse) was ~20-30 ms of each such call, a fifth of it
 * (docs/performance.md, "Session 12"). Only a command line picocli would parse without an error and without a help
 * request is taken here, and taken to the same command object with the same field values
 * ({@code QuickArgsTest} checks both against picocli's parse of thousands of command lines); anything else
 * (a help or version option, an unknown or repeated option, a value that looks like an option, {@code -config},
 * {@code --name=value}, {@code @file}, {@code --}, too few or too many parameters) returns null and picocli parses
 * it, so every usage error and help text is picocli's own. Stateless; any thread.
 */
final class QuickArgs {
    /** One command's grammar: its flags and one-value options (every spelling), its parameters' counts. */
    private record Grammar(List<String> flags, List<String> valued, int minParams, int maxParams, Factory factory) {}

    @FunctionalInterface
    private interface Factory {
        Callable<Integer> create(CliContext ctx, Parsed p);
    }

    /** What a command line set: an option by its first spelling in the grammar, the parameters in order. */
    private record Parsed(Map<String, String> options, List<String> params) {
        boolean flag(String name) {
            return options.containsKey(name);
        }

        String value(String name) {
            return options.get(name);
        }

        String param(int i) {
            return i < params.size() ? params.get(i) : null;
        }

        ClientOptions api() {
            return ClientOptions.of(value("-address"), value("-token"));
        }
    }

    private static final List<String> API = List.of("-address", "--address", "-token", "--token");

    private static final Map<String, Grammar> COMMANDS = Map.of(
            "alloc status", new Grammar(List.of("-verbose", "--verbose", "-json", "--json"), API, 1, 1,
                    (ctx, p) -> AllocStatusCommand.of(ctx, p.api(), p.flag("-verbose"), p.flag("-json"),
                            p.param(0))),
            "alloc logs", new Grammar(List.of("-stderr", "--stderr", "-f", "--f"), API, 2, 2,
                    (ctx, p) -> AllocLogsCommand.of(ctx, p.api(), p.flag("-stderr"), p.flag("-f"), p.param(0),
                            p.param(1))),
            "job status", new Grammar(List.of(), API, 0, 1,
                    (ctx, p) -> JobStatusCommand.of(ctx, p.api(), p.param(0))),
            "plugin status", new Grammar(List.of("-verbose", "--verbose"), API, 0, 0,
                    (ctx, p) -> PluginStatusCommand.of(ctx, p.api(), p.flag("-verbose"))));

    private QuickArgs() {}

    /** The command of {@code args} ready to call, or null when picocli is to parse them (see the class comment). */
    static Callable<Integer> command(String[] args, CliContext ctx) {
        if (args.length < 2) {
            return null;
        }
        Grammar g = COMMANDS.get(args[0] + " " + args[1]);
        if (g == null) {
            return null;
        }
        Map<String, String> options = new HashMap<>();
        List<String> params = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("@")) {
                return null; // picocli reads an @file's arguments
            }
            if (!a.startsWith("-")) {
                params.add(a);
                continue;
            }
            String name = canonical(g.flags, a);
            if (name != null) {
                if (options.put(name, "") != null) {
                    return null; // given twice: picocli's error
                }
                continue;
            }
            name = canonical(g.valued, a);
            if (name == null || i + 1 >= args.length) {
                return null; // unknown, -h/--help, --x=v, --, or a missing value: picocli's to handle
            }
            String value = args[++i];
            if (value.startsWith("-") || value.startsWith("@") || options.put(name, value) != null) {
                return null;
            }
        }
        if (params.size() < g.minParams || params.size() > g.maxParams) {
            return null;
        }
        return g.factory.create(ctx, new Parsed(options, params));
    }

    /** The first spelling of {@code arg}'s option in {@code names} (they come in pairs: -x, --x), else null. */
    private static String canonical(List<String> names, String arg) {
        int i = names.indexOf(arg);
        return i < 0 ? null : names.get(i - i % 2);
    }
}
