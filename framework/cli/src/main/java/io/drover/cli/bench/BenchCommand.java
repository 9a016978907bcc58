package io.drover.cli.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.drover.bench.BenchEnv;
import io.drover.bench.BenchParams;
import io.drover.bench.BenchSuite;
import io.drover.bench.Figure;
import io.drover.bench.Table;
import io.drover.bench.Verdict;
import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.PluginDirs;
import io.drover.cli.UserException;
import io.drover.core.config.AgentConfig;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code drover bench [--quick] [-json] [--only a,b] [--param bench.key=value]}: runs the benchmarks of docs/performance.md in this process,
 * each figure beside its same-run baseline and its aim, and prints a table (or JSON). Progress goes to stderr.
 * Exit code 0 when every bench measured (a missed aim is reported, not an error), 1 when one failed to measure.
 */
@Command(name = "bench",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {BenchCommand.SUMMARY,
            "Prints each figure beside its baseline and aim (docs/performance.md)."})
public final class BenchCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Measures Drover: launch vs ProcessBuilder, lifecycle throughput, kill "
            + "escalation and max_runtime lateness, GC, 10,000 concurrent tasks, durable events/s, drover run of the "
            + "seed job, agent start with 10,000 allocations, GET /v1/allocation/:id latency.";

    private final CliContext ctx;

    @Option(names = "--quick", description = "The CI form: smaller counts, under 2 minutes.")
    private boolean quick;

    @Option(names = "-json", description = "Print the figures as JSON instead of a table.")
    private boolean json;

    @Option(names = "--only", split = ",", paramLabel = "BENCH",
            description = "Run only these benches (comma-separated): ${COMPLETION-CANDIDATES}.",
            completionCandidates = Names.class)
    private List<String> only = List.of();

    @Option(names = "--param", split = ",", paramLabel = "BENCH.KEY=VALUE",
            description = "Sets a bench's parameter, e.g. gc.parallel=4 (repeatable or comma-separated; "
                    + "docs/cli.md lists them).")
    private List<String> params = List.of();

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Scratch directory for stores and data dirs (default: a new temporary directory).")
    private Path workDir;

    BenchCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        Set<String> selected = new LinkedHashSet<>(only);
        for (String name : selected) {
            if (!BenchSuite.all().containsKey(name)) {
                throw new UserException("--only: unknown bench '" + name + "' (known: "
                        + String.join(", ", BenchSuite.all().keySet()) + ")", ExitCodes.USAGE);
            }
        }
        BenchParams settings;
        try {
            settings = BenchParams.parse(params, BenchSuite.all());
        } catch (IllegalArgumentException e) {
            throw new UserException(e.getMessage(), ExitCodes.USAGE);
        }
        Path dir = workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("drover-bench");
        String home = System.getProperty(PluginDirs.HOME_PROPERTY);
        BenchEnv env = new BenchEnv(quick, PluginDirs.resolve(AgentConfig.defaults()),
                home == null ? null : Path.of(home).toAbsolutePath().normalize(), dir, ctx.err(), settings);
        ctx.err().printf("drover bench%s: %d cores, java %s, load average %.2f, scratch %s%n", quick ? " --quick" : "",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), dir);
        List<Figure> figures = BenchSuite.run(env, selected);
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("quick", quick);
            doc.put("cores", Runtime.getRuntime().availableProcessors());
            doc.put("java", System.getProperty("java.version"));
            doc.put("figures", figures);
            ctx.out().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(doc));
        } else {
            ctx.out().print(Table.render(figures));
        }
        return figures.stream().anyMatch(f -> f.verdict() == Verdict.ERROR) ? ExitCodes.FAILED : ExitCodes.OK;
    }

    /** Bench names for the help text. */
    static final class Names implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return BenchSuite.all().keySet().iterator();
        }
    }
}
