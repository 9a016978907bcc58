package io.drover.cli.run;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.ExitCodes;
import io.drover.cli.LogLevels;
import io.drover.cli.PluginBlocks;
import io.drover.cli.PluginDirs;
import io.drover.cli.format.AllocJson;
import io.drover.cli.format.AllocStatusFormatter;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover run}: an embedded dev-mode agent runs the jobs to their end and prints every allocation's
 * status. Nothing runs unless every job file parses and names loaded drivers. Exit code 1 when an allocation
 * failed, 2 for bad input.
 */
@Command(name = "run",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {
            "Runs the jobs in an embedded agent until every allocation is complete or failed, then prints each "
                    + "allocation's status like 'nomad alloc status -verbose'.",
            "While jobs run, a live status line per allocation goes to stderr. Ctrl-C stops the allocations "
                    + "(poststop tasks still run) and prints their status.",
            "Dev mode: raw_exec is enabled unless the config's plugin block says otherwise; data goes to a "
                    + "temporary directory unless the config sets data_dir."},
        footer = {"", "Exit codes: 0 every allocation complete, 1 an allocation failed, "
                + "2 bad input (job file, config, unknown driver); nothing runs on 2."})
public final class RunCommand implements Callable<Integer> {
    /** Extra time the Ctrl-C path waits beyond max_kill_timeout for poststop tasks and the final status. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(10);

    /** Lines of each task's stdout and stderr that -verbose prints under its section. */
    private static final int LOG_TAIL_LINES = 10;

    private final CliContext ctx;

    @Mixin
    private ConfigOption config;

    @Option(names = {"-json", "--json"},
            description = "Print the allocations as a JSON array in Nomad's API shape instead of text.")
    private boolean json;

    @Option(names = {"-verbose", "--verbose"},
            description = "Show the last lines of each task's stdout and stderr under its section, full "
                    + "allocation IDs in the live status, and Drover's INFO log lines on stderr.")
    private boolean verbose;

    @Parameters(arity = "1..*", paramLabel = "JOB",
            description = "Job files: Nomad jobspec HCL (.hcl) or Nomad API JSON (.json).")
    private List<Path> jobFiles;

    RunCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        AgentConfig agent = config.load();
        ignoredKeys(agent).ifPresent(line -> ctx.err().println(line));
        if (verbose) {
            LogLevels.verbose();
        }
        ClientConfig client = agent.client();
        try (InterruptHook interrupt = InterruptHook.install(client.maxKillTimeout().plus(INTERRUPT_GRACE));
                DataDir data = DataDir.open(agent.dataDir());
                EngineRuntime runtime = EngineRuntime.real(Math.max(2, Runtime.getRuntime().availableProcessors()));
                DriverRegistry registry = DriverRegistry.load(PluginDirs.resolve(agent),
                        DevModePlugins.merge(agent.plugins()), runtime.timers())) {
            registry.problems().forEach(p -> ctx.err().println("Warning: " + p));
            PluginBlocks.check(agent, registry, ctx.err());
            JobLoader.Result loaded = JobLoader.load(jobFiles, registry);
            if (!loaded.ok()) {
                for (JobFileException p : loaded.problems()) {
                    ctx.err().println("Error: " + p.getMessage());
                }
                return ExitCodes.USAGE;
            }
            List<AllocationState> allocs;
            EngineConfig engineConfig = new EngineConfig(data.path(), client.maxKillTimeout(), client.gcKillPolicy(),
                    client.driverStartTimeout());
            try (Engine engine = new Engine(engineConfig, registry, runtime);
                    LiveStatus live = new LiveStatus(ctx.err(), ctx.errIsTerminal(), verbose, ctx.terminalWidth())) {
                engine.addListener(live);
                JobRunner runner = new JobRunner(engine);
                interrupt.onInterrupt(() -> {
                    ctx.err().println("==> Caught interrupt: stopping allocations");
                    runner.stopAll();
                });
                allocs = runner.runToEnd(loaded.jobs());
            }
            ctx.out().print(json ? AllocJson.format(allocs) : text(allocs, data.path()));
            ctx.out().flush();
            return allocs.stream().anyMatch(a -> a.clientStatus() == ClientStatus.FAILED)
                    ? ExitCodes.FAILED : ExitCodes.OK;
        }
    }

    /**
     * Keys of the agent config that only {@code drover agent} uses: the embedded agent has no API, no log level of
     * its own and no garbage collector (it runs the jobs to their end, then exits).
     */
    static final List<String> AGENT_ONLY_KEYS = List.of("log_level", "bind_addr", "ports", "acl",
            "client > gc_interval", "client > gc_max_allocs", "client > gc_disk_usage_threshold",
            "client > gc_inode_usage_threshold", "client > gc_parallel_destroys", "client > record_retention");

    /** One warning line naming the agent-only keys the config file sets, in file order; empty when none. */
    static java.util.Optional<String> ignoredKeys(AgentConfig agent) {
        List<String> set = agent.source().keys().stream().filter(AGENT_ONLY_KEYS::contains)
                .sorted(java.util.Comparator.comparingInt(agent.source()::line))
                .map(k -> k.substring(k.lastIndexOf(' ') + 1)).toList();
        return set.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of("Warning: drover run: ignoring "
                + "agent-only keys in " + agent.source().file() + ": " + String.join(", ", set));
    }

    /** With -verbose, each task's section ends with the last lines of its stdout and stderr. */
    private String text(List<AllocationState> allocs, java.nio.file.Path dataDir) {
        return allocs.stream()
                .map(a -> AllocStatusFormatter.format(a, ctx.zone(), java.util.Map.of(), task -> !verbose ? ""
                        : io.drover.cli.format.LogTail.section(
                                dataDir.resolve("alloc").resolve(a.id()).resolve("alloc").resolve("logs"), task,
                                LOG_TAIL_LINES)))
                .collect(Collectors.joining("\n"));
    }
}
