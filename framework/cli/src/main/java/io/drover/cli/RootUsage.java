package io.drover.cli;

/**
 * {@code drover}, {@code drover -h/--help} and {@code drover -V/--version} without picocli: the root's usage is a
 * fixed text (the root takes no option but these two, and picocli's usage width is fixed at 80 columns), so it is
 * kept here as picocli prints it, and printed as picocli's {@code execute} prints it. picocli's first use (its
 * classes, the model of the root and its 9 command summaries, the usage layout) was ~60 ms of the CPU of a
 * {@code --help} call, half of it (docs/performance.md, "Session 12"). {@code MainTest#rootUsageIsTheFullModelsUsage}
 * holds {@link #TEXT} equal to the full model's usage (a description changed in a command fails there: copy
 * picocli's new text here), {@code RootUsageTest} the version lines. Stateless; any thread.
 */
final class RootUsage {
    /** The root's usage, as picocli renders the full model ({@code Main.model}), with Unix line ends. */
    static final String TEXT = """
            Usage: drover [-hV] [COMMAND]
            Drover runs jobs of tasks through driver plugins, with Nomad's task lifecycle.
              -h, --help      Show this help message and exit.
              -V, --version   Print version information and exit.
            Commands:
              run           Runs the jobs in an embedded agent until every allocation is
                              complete or failed, then prints each allocation's status like
                              'nomad alloc status -verbose'.
              agent         Runs the Drover agent: driver plugins, durable state in
                              data_dir and the HTTP API.
              job           Job commands (talk to a running agent).
              alloc         Allocation commands (talk to a running agent).
              system        System commands (talk to a running agent).
              plugin        Driver plugin commands.
              bench         Measures Drover: launch vs ProcessBuilder, lifecycle
                              throughput, kill escalation and max_runtime lateness, GC,
                              10,000 concurrent tasks, durable events/s, drover run of the
                              seed job, agent start with 10,000 allocations, GET
                              /v1/allocation/:id latency.
              nomad-plugin  Serves one Drover driver to a Nomad client as an external task
                              driver plugin (go-plugin, gRPC). Nomad's client starts it
                              from its plugin_dir; see docs/nomad.md.
              help          Display help information about the specified command.

            Exit codes: 0 ok, 1 an allocation failed, no agent or an agent error, 2 bad
            input (usage, job file, config, driver).
            Client commands find the agent at -address, else DROVER_ADDR, else http://127.
            0.0.1:4747.
            Set DROVER_DEBUG=1 to see stack traces of unexpected errors.
            """;

    private RootUsage() {}

    /** The exit code after printing the root's usage or version when {@code args} asks for one of them, else null. */
    static Integer print(String[] args, CliContext ctx) {
        if (args.length == 0) {
            ctx.err().print(platform(TEXT)); // Main.call(): the usage on stderr, a usage error
            return ExitCodes.USAGE;
        }
        if (args.length != 1) {
            return null;
        }
        switch (args[0]) {
            case "-h", "--help" -> {
                ctx.out().print(platform(TEXT));
                return ExitCodes.OK;
            }
            case "-V", "--version" -> {
                for (String line : new VersionProvider().getVersion()) {
                    ctx.out().print(line + System.lineSeparator()); // picocli: one println per line
                }
                return ExitCodes.OK;
            }
            default -> {
                return null;
            }
        }
    }

    /** picocli ends its lines with the platform's separator ({@code %n}). */
    private static String platform(String text) {
        return "\n".equals(System.lineSeparator()) ? text : text.replace("\n", System.lineSeparator());
    }
}
