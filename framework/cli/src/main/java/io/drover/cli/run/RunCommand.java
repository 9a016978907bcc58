package io.drover.cli.run;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.ExitCodes;
import io.drover.cli.LogLevels;
import io.drover.cli.PluginBlocks;
import io.drover.cli.PluginDirs;
import io.drover.cli.UserException;
import io.drover.cli.format.AllocJson;
import io.drover.cli.format.AllocStatusFormatter;
import io.drover.cli.format.TerminalText;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.event.GoDuration;
import io.drover.core.reschedule.Rescheduler;
import io.drover.core.spec.parse.GoDurations;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
            RunCommand.SUMMARY,
            "While jobs run, a live status line per allocation goes to stderr. Ctrl-C (or SIGTERM) stops the "
                    + "allocations (poststop tasks still run) and prints their status; a second Ctrl-C, or "
                    + "max_kill_timeout + 10s, kills every task left with SIGKILL.",
            "Dev mode: raw_exec is enabled unless the config's plugin block says otherwise; data goes to a "
                    + "temporary directory unless the config sets data_dir."},
        footer = {"", "A failed allocation whose reschedule policy allows another attempt is replaced after its "
                + "delay, as the agent does; the run waits for the replacement.",
            "", "Exit codes: 0 every allocation complete, 1 an allocation failed (and was not replaced), "
                + "2 bad input (job file, config, unknown driver); nothing runs on 2; 130 / 143 interrupted by "
                + "SIGINT / SIGTERM (the status is printed)."})
public final class RunCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Runs the jobs in an embedded agent until every allocation is complete "
            + "or failed, then prints each allocation's status like 'nomad alloc status -verbose'.";

    /** Extra time the Ctrl-C path waits beyond max_kill_timeout for poststop tasks and the final status. */
    private static final Duration INTERRUPT_GRACE = Duration.ofSeconds(10);

    /**
     * System property that replaces the Ctrl-C path's wait bound (default max_kill_timeout + 10 s), a Go duration
     * ({@code -Ddrover.run.interrupt-wait=2s}, via {@code JAVA_TOOL_OPTIONS}).
     */
    static final String INTERRUPT_WAIT_PROPERTY = "drover.run.interrupt-wait";

    /** How long the tasks killed with SIGKILL (second Ctrl-C, or the wait bound passed) get to be reported dead. */
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);

    /** Lines of each task's stdout and stderr that -verbose prints under its section. */
    private static final int LOG_TAIL_LINES = 10;

    private final CliContext ctx;

    @Mixin
    private ConfigOption config;

    @Mixin
    private io.drover.cli.VarOptions vars;

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
        io.drover.core.spec.parse.hcl.HclInputs inputs = vars.inputs(ctx); // a bad -var: nothing starts
        AgentConfig agent = config.load();
        ignoredKeys(agent).ifPresent(line -> ctx.err().println(line));
        if (verbose) {
            LogLevels.verbose();
        }
        ClientConfig client = agent.client();
        Duration interruptWait = interruptWait(client);
        try (InterruptSignals signals = InterruptSignals.install();
                InterruptHook hook = InterruptHook.install(interruptWait.plus(KILL_WAIT));
                DataDir data = DataDir.open(agent.dataDir());
                EngineRuntime runtime = EngineRuntime.real(Math.max(2, Runtime.getRuntime().availableProcessors()));
                DriverRegistry registry = DriverRegistry.load(PluginDirs.resolve(agent),
                        DevModePlugins.merge(agent.plugins()), runtime.timers())) {
            registry.problems().forEach(p -> ctx.err().println("Warning: " + TerminalText.escape(p.toString())));
            PluginBlocks.check(agent, registry, ctx.err());
            StaleRunDirs.sweep(data, registry); // what runs killed with SIGKILL left in the temp root
            JobLoader.Result loaded = JobLoader.load(jobFiles, inputs, registry, client.taskLimits());
            if (!loaded.ok()) {
                for (JobFileException p : loaded.problems()) {
                    ctx.err().println("Error: " + TerminalText.escape(p.getMessage()));
                }
                return ExitCodes.USAGE;
            }
            List<AllocationState> allocs;
            java.util.Map<String, Rescheduler.Lineage> lineages = new java.util.HashMap<>();
            io.drover.agent.NodeInfo nodeInfo;
            try {
                nodeInfo = io.drover.agent.NodeInfo.load(data.path(), agent);
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cannot describe this node in " + data.path() + ": "
                        + e.getMessage(), e);
            }
            EngineConfig engineConfig = new EngineConfig(data.path(), client.maxKillTimeout(), client.gcKillPolicy(),
                    client.driverStartTimeout(), client.dynamicPorts(), client.node().hostVolumes())
                    .withNode(nodeInfo.interpolationVars());
            try (Engine engine = new Engine(engineConfig, registry, runtime);
                    LiveStatus live = new LiveStatus(ctx.err(), ctx.errIsTerminal(), verbose, ctx.terminalWidth())) {
                engine.addListener(live);
                Rescheduler rescheduler = new Rescheduler(engine.timers(), runtime.executor(), nodeInfo.id());
                engine.addListener(rescheduler);
                io.drover.core.spec.placement.NodeFeasibility node = nodeInfo.feasibility(registry.names());
                JobRunner runner = new JobRunner(engine, rescheduler, node,
                        line -> ctx.err().println(TerminalText.escape(line)));
                allocs = runToEnd(runner, loaded, signals, hook, interruptWait);
                allocs.forEach(a -> lineages.put(a.id(), runner.lineage(a.id())));
            }
            ctx.out().print(json ? TerminalText.escapeJson(AllocJson.format(allocs, lineages::get))
                    : text(allocs, lineages, data.path()));
            ctx.out().flush();
            if (signals.first().isDone()) {
                return signals.first().join();
            }
            // a failed allocation that was replaced is not the run's outcome: the last of its lineage is
            return allocs.stream().anyMatch(a -> a.clientStatus() == ClientStatus.FAILED
                    && lineages.get(a.id()).next() == null) ? ExitCodes.FAILED : ExitCodes.OK;
        }
    }

    /**
     * Runs the jobs until every allocation is terminal. The first SIGINT or SIGTERM stops the allocations (their
     * poststop tasks then run, as in Nomad). {@code drover run} owns its tasks — no agent re-attaches them after
     * it — so when they have not ended {@code interruptWait} after it, or on a second signal, every task left is
     * killed at once (SIGKILL of its tree, through the engine: the events are recorded), and their exits are
     * awaited at most {@link #KILL_WAIT}.
     *
     * @return every allocation's latest state, terminal unless a driver never reported a killed task's end
     */
    private List<AllocationState> runToEnd(JobRunner runner, JobLoader.Result loaded, InterruptSignals signals,
            InterruptHook hook, Duration interruptWait) {
        signals.first().thenRun(() -> {
            ctx.err().println("==> Caught interrupt: stopping allocations (interrupt again to kill every task now)");
            runner.stopAll();
        });
        CompletableFuture<String> kill = signals.first().thenCompose(code -> signals.second()
                .thenApply(again -> "drover run interrupted twice")
                .applyToEither(after(interruptWait), reason -> reason));
        kill.thenAccept(reason -> {
            ctx.err().println("==> " + reason + ": killing every task left (SIGKILL)");
            runner.killAll(reason);
        });
        hook.onInterrupt(() -> kill.complete("drover run shutting down"));
        CompletableFuture<Void> ended = runner.submitAll(loaded.jobs());
        CompletableFuture.anyOf(ended, kill.thenCompose(reason -> after(KILL_WAIT))).join();
        List<AllocationState> allocs = runner.allocations();
        long live = allocs.stream().filter(a -> !a.clientStatus().terminal()).count();
        if (live > 0) {
            ctx.err().println("Warning: " + live + " allocation(s) not reported dead " + GoDuration.format(KILL_WAIT)
                    + " after SIGKILL; their last state follows");
        }
        return allocs;
    }

    /** Completes with the time-out's description {@code d} from now, on the JDK's delayed executor (no thread waits). */
    private static CompletableFuture<String> after(Duration d) {
        return new CompletableFuture<String>().completeOnTimeout(
                "allocations still running " + GoDuration.format(d) + " after the interrupt", d.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** The property's bound when set, else max_kill_timeout + 10 s. */
    private static Duration interruptWait(ClientConfig client) {
        String text = System.getProperty(INTERRUPT_WAIT_PROPERTY);
        if (text == null || text.isBlank()) {
            return client.maxKillTimeout().plus(INTERRUPT_GRACE);
        }
        try {
            Duration d = GoDurations.parse(text.trim());
            if (d.isNegative()) {
                throw new IllegalArgumentException("negative");
            }
            return d;
        } catch (IllegalArgumentException e) {
            throw UserException.badInput("-D" + INTERRUPT_WAIT_PROPERTY + "=" + text + ": not a duration (e.g. 2s, 1m)");
        }
    }

    /**
     * Keys of the agent config that only {@code drover agent} uses: the embedded agent has no API, no log level of
     * its own and no garbage collector (it runs the jobs to their end, then exits).
     */
    static final List<String> AGENT_ONLY_KEYS = List.of("log_level", "bind_addr", "ports", "acl", "http",
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
    private String text(List<AllocationState> allocs, java.util.Map<String, Rescheduler.Lineage> lineages,
            java.nio.file.Path dataDir) {
        return allocs.stream()
                .map(a -> AllocStatusFormatter.format(a, ctx.zone(), java.util.Map.of(),
                        io.drover.cli.format.RescheduleLines.of(a, lineages.get(a.id())), task -> !verbose ? ""
                        : io.drover.cli.format.LogTail.section(
                                dataDir.resolve("alloc").resolve(a.id()).resolve("alloc").resolve("logs"), task,
                                LOG_TAIL_LINES)))
                .collect(Collectors.joining("\n"));
    }
}
