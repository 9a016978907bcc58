package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.driver.DriverInfo;
import io.drover.core.engine.Engine;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.spec.placement.NodeFeasibility;
import io.drover.core.state.AllocationState;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-form "runs as Nomad would" check (docs/jobs.md, "The corpus"): {@code -Ddrover.corpus=DIR[:DIR...]} RUNS
 * every job file under each DIR that validates and whose tasks use only raw_exec, exec, java or mock(_driver), on
 * one real agent loading the four bundled plugin JARs (real processes: exec's chroot as root, java's JVMs), all at
 * once, each placed on this node as the agent places it; after a deadline ({@code -Ddrover.corpus.deadline},
 * default 60 s) it reports per DIR and in all how many reach running (service, system: every allocation running)
 * or complete (batch, sysbatch), how many fail and why (by category, {@link CorpusVerdict}), and which are counted
 * apart (not placed on this node; periodic or parameterized parents, which run only on their schedule or a
 * dispatch), writing target/corpus-run-report.txt. A job that failed only because another corpus job held its
 * static port (the check runs them all on one node at once) runs again alone after the others, for
 * {@code -Ddrover.corpus.alone.deadline} (default 20 s), and counts as what it does then; its line names the job
 * that held the port. Then every allocation is stopped and the leak check proves no process is left. Fails only
 * when nothing was run.
 */
@EnabledIfSystemProperty(named = "drover.corpus", matches = ".+")
@ExtendWith(ProcessLeakCheck.class)
class NomadCorpusRunCheck {
    private static final Set<String> KNOWN = Set.of("raw_exec", "mock", "mock_driver", "exec", "java");

    @TempDir
    Path tmp;

    private record Placed(String dir, Path file, Job job, List<String> allocs) {}

    @Test
    void runsTheCorpus() throws Exception {
        Duration deadline = Duration.ofSeconds(Long.getLong("drover.corpus.deadline", 60));
        Duration alone = Duration.ofSeconds(Long.getLong("drover.corpus.alone.deadline", 20));
        Map<String, Map<String, Integer>> outcome = new LinkedHashMap<>();
        Map<String, int[]> counts = new LinkedHashMap<>(); // dir -> {validate, run}
        List<String> lines = new ArrayList<>();
        List<Placed> placed = new ArrayList<>();
        try (Agent agent = Agent.start(config(), () -> { })) {
            Engine engine = agent.engine();
            List<String> drivers = agent.drivers().stream().map(DriverInfo::name).toList();
            assertThat(drivers).as("bundled drivers loaded").contains("raw_exec", "exec", "java", "mock");
            NodeFeasibility node = NodeInfo.load(agent.dataDir(), AgentConfig.defaults()).feasibility(drivers);
            try {
                for (String dir : System.getProperty("drover.corpus").split(":")) {
                    Path root = Path.of(dir);
                    Map<String, Integer> out = outcome.computeIfAbsent(dir, k -> new TreeMap<>());
                    int[] c = counts.computeIfAbsent(dir, k -> new int[2]);
                    for (Path f : files(root)) {
                        Job job;
                        try {
                            job = JobFileParser.parse(f);
                        } catch (JobFileException | RuntimeException e) {
                            continue; // NomadCorpusCheck reports these
                        }
                        Set<String> used = new TreeSet<>();
                        job.groups().forEach(g -> g.tasks().forEach(t -> used.add(t.driver())));
                        if (!KNOWN.containsAll(used)) {
                            continue; // not a job of this corpus measure
                        }
                        c[0]++;
                        String rel = root.relativize(f).toString();
                        if (job.launch().parent()) {
                            out.merge("apart: a periodic or parameterized parent (runs on its schedule or a dispatch)",
                                    1, Integer::sum);
                            lines.add(dir + "/" + rel + ": apart (periodic or parameterized)");
                            continue;
                        }
                        List<NodeFeasibility.GroupPlacement> placement = node.place(job);
                        if (!placement.stream().allMatch(g -> g.placeable() >= g.count())) {
                            String why = String.join("; ", placement.stream().flatMap(g -> g.failures().stream())
                                    .filter(l -> l.startsWith("  * ")).map(l -> l.substring(4)).distinct().toList());
                            out.merge("apart: not placed on this node (" + why + ")", 1, Integer::sum);
                            lines.add(dir + "/" + rel + ": not placed: " + why);
                            continue;
                        }
                        c[1]++;
                        placed.add(new Placed(dir, f, job, place(agent, job)));
                    }
                }
                Instant until = Instant.now().plus(deadline);
                Map<Placed, String> verdict = new LinkedHashMap<>();
                while (Instant.now().isBefore(until) && verdict.size() < placed.size()) {
                    for (Placed p : placed) {
                        if (!verdict.containsKey(p) && !pending(agent, p.allocs())) {
                            String v = CorpusVerdict.of(engine, p.job(), heads(agent, p.allocs()), false);
                            if (v != null) {
                                verdict.put(p, v);
                            }
                        }
                    }
                    Thread.sleep(200); // polling a condition with a deadline
                }
                for (Placed p : placed) {
                    verdict.computeIfAbsent(p, k -> CorpusVerdict.of(engine, k.job(), heads(agent, k.allocs()), true));
                }
                Map<Placed, String> clashes = new LinkedHashMap<>();
                verdict.forEach((p, v) -> {
                    String detail = CorpusVerdict.detail(engine, agent.dataDir(), heads(agent, p.allocs()), v);
                    String other = CorpusVerdict.portTakenBy(detail);
                    Placed owner = other == null ? null
                            : placed.stream().filter(q -> lineages(agent, q.allocs()).contains(other)).findFirst()
                                    .orElse(null);
                    if (owner != null && owner != p) {
                        clashes.put(p, "its static port taken by corpus job " + rel(owner) + " [" + detail.strip()
                                + "]");
                        return; // decided below, when it runs alone
                    }
                    outcome.get(p.dir()).merge(v, 1, Integer::sum);
                    lines.add(rel(p) + ": " + v + detail);
                });
                stopAll(agent);
                // A static port two corpus jobs both ask for clashes only because this check runs every job on one
                // node at once (as it would on one Nomad node): each such job runs again, alone, after the others.
                for (Map.Entry<Placed, String> c : clashes.entrySet()) {
                    Placed p = c.getKey();
                    List<String> again = place(agent, p.job());
                    String v = await(agent, p.job(), again, Instant.now().plus(alone));
                    outcome.get(p.dir()).merge(v, 1, Integer::sum);
                    outcome.get(p.dir()).merge("(of these, run alone after a static-port clash with another corpus job)",
                            1, Integer::sum);
                    lines.add(rel(p) + ": " + v + " when run alone; with the others: " + c.getValue()
                            + CorpusVerdict.detail(engine, agent.dataDir(), heads(agent, again), v));
                    stopAll(agent);
                }
            } finally {
                // the agent leaves tasks running when it closes (for the next agent to re-attach): stop them all
                stopAll(agent);
            }
        }
        StringBuilder report = new StringBuilder();
        Map<String, Integer> all = new TreeMap<>();
        int[] allCounts = new int[2];
        outcome.forEach((dir, out) -> {
            int[] c = counts.get(dir);
            section(report, dir, c, out, deadline);
            out.forEach((k, v) -> all.merge(k, v, Integer::sum));
            allCounts[0] += c[0];
            allCounts[1] += c[1];
        });
        section(report, "all", allCounts, all, deadline);
        report.append('\n');
        lines.forEach(l -> report.append(l).append('\n'));
        Path out = Path.of("target", "corpus-run-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.print(report);
        assertThat(placed).as("jobs run").isNotEmpty();
    }

    /** {@code p}'s file as the report names it: its corpus dir and its path there. */
    private static String rel(Placed p) {
        return p.dir() + "/" + Path.of(p.dir()).relativize(p.file());
    }

    /** Stops every allocation and waits for each to end (their ports are free again then). */
    /**
     * Registers the job with the agent's registry, so its failed allocations are rescheduled as the agent's are; a
     * job whose id an earlier corpus job registered is submitted to the engine instead (a registration would stop
     * that one), and runs without rescheduling. The ids of the allocations first placed.
     */
    private static List<String> place(Agent agent, Job job) throws ReflectiveOperationException {
        Job marked = CorpusVerdict.marked(job);
        List<AllocationState> allocs;
        if (agent.jobs().job(job.id()).filter(e -> !e.stopped()).isPresent()) {
            allocs = agent.engine().submit(marked);
        } else {
            try {
                allocs = agent.jobs().register(marked).placed();
            } catch (JobRegistry.TooManyTasksException e) { // max_tasks counts registered jobs only: run it anyway
                allocs = agent.engine().submit(marked);
            }
        }
        return allocs.stream().map(AllocationState::id).toList();
    }

    /** Each allocation's lineage, the allocation first and its replacements after it, in order. */
    private static List<String> lineages(Agent agent, List<String> allocs) {
        List<String> out = new ArrayList<>();
        for (String id : allocs) {
            for (String at = id; at != null; at = agent.jobs().lineage(at).next()) {
                out.add(at);
            }
        }
        return out;
    }

    /** The newest allocation of each lineage: what a job placed comes to, its failed ones replaced. */
    private static List<String> heads(Agent agent, List<String> allocs) {
        List<String> out = new ArrayList<>();
        for (String id : allocs) {
            String at = id;
            for (String n = agent.jobs().lineage(at).next(); n != null; n = agent.jobs().lineage(at).next()) {
                at = n;
            }
            out.add(at);
        }
        return out;
    }

    /** Whether a lineage's newest allocation failed and its replacement is still to be placed (its delay). */
    private static boolean pending(Agent agent, List<String> allocs) {
        return heads(agent, allocs).stream().anyMatch(agent.jobs()::reschedulePending);
    }

    /** Stops every registered job (which cancels pending replacements), then every allocation, and awaits them. */
    private static void stopAll(Agent agent) throws Exception {
        Engine engine = agent.engine();
        agent.jobs().jobs().forEach(e -> agent.jobs().stop(e.job().id()));
        engine.allocations().forEach(a -> engine.stop(a.id()));
        for (AllocationState a : engine.allocations()) {
            engine.terminal(a.id()).get(90, TimeUnit.SECONDS);
        }
    }

    /** The verdict of one job's allocations, polled until decided or {@code until}. */
    private static String await(Agent agent, Job job, List<String> allocs, Instant until) throws InterruptedException {
        while (Instant.now().isBefore(until)) {
            String v = pending(agent, allocs) ? null : CorpusVerdict.of(agent.engine(), job, heads(agent, allocs), false);
            if (v != null) {
                return v;
            }
            Thread.sleep(200); // polling a condition with a deadline
        }
        return CorpusVerdict.of(agent.engine(), job, heads(agent, allocs), true);
    }

    private static void section(StringBuilder r, String name, int[] c, Map<String, Integer> out, Duration deadline) {
        r.append("== ").append(name).append('\n');
        r.append("validate, tasks raw_exec/exec/java/mock only: ").append(c[0]).append('\n');
        r.append("run (placed on this node, all four drivers): ").append(c[1]).append(", deadline ").append(deadline)
                .append('\n');
        out.forEach((k, v) -> r.append(v).append("  ").append(k).append('\n'));
    }

    private static List<Path> files(Path root) throws java.io.IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".nomad") || p.toString().endsWith(".hcl")).sorted().toList();
        }
    }

    /** An agent config with the four bundled plugin JARs in an owner-only plugin_dir, raw_exec enabled. */
    private AgentConfig config() throws java.io.IOException {
        // A node's data_dir sits below parents others may pass through (/var/lib, 0755): a java task runs as
        // nobody outside any chroot and opens ${NOMAD_ALLOC_DIR} by its host path (docs/jobs.md, the java
        // options). JUnit's temporary dir is 0700; as root, the agent makes data_dir itself 0711.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx--x--x"));
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwx------"));
        try (var jars = Files.list(Path.of(System.getProperty("drover.test.plugins.all", "target/test-plugins-all")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.copy(jar, plugins.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        ClientConfig d = ClientConfig.defaults(); // but nothing collected before the report reads its stderr
        ClientConfig keep = new ClientConfig(d.gcInterval(), 100_000, 100, 100, d.gcParallelDestroys(),
                d.gcKillPolicy(), d.maxKillTimeout(), d.recordRetention(), d.driverStartTimeout(), d.taskLimits(),
                d.dynamicPorts(), d.node());
        return new AgentConfig(tmp.resolve("data"), plugins, "WARN", "127.0.0.1", 0, keep,
                Map.of("raw_exec", Map.of("enabled", true)), null, null, null);
    }
}
