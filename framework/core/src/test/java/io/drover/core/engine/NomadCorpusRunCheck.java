package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.mock.MockDriver;
import io.drover.process.ProcessLeakCheck;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-form "runs as Nomad would" check (docs/jobs.md, "The corpus"): {@code -Ddrover.corpus=DIR} RUNS every
 * job file under DIR that validates and whose tasks use only raw_exec or mock(_driver), on one real engine (real
 * processes), all at once, and reports after a deadline ({@code -Ddrover.corpus.deadline}, default 60 s) how many
 * reach running (service, system) or complete (batch, sysbatch), how many fail and why (by category: a binary
 * missing on this host, needs the network, an exit code, ...), writing target/corpus-run-report.txt. Jobs whose
 * tasks use exec or java are counted apart: those drivers are plugins this module's tests do not load. Then every
 * allocation is stopped, and the leak check proves no process is left. Fails only when nothing was run.
 */
@EnabledIfSystemProperty(named = "drover.corpus", matches = ".+")
@ExtendWith(ProcessLeakCheck.class)
class NomadCorpusRunCheck {
    @TempDir
    Path dataDir;

    private static final Set<String> RUNNABLE = Set.of("raw_exec", "mock", "mock_driver");
    private static final Set<String> KNOWN = Set.of("raw_exec", "mock", "mock_driver", "exec", "java");

    private record Placed(Path file, Job job, List<String> allocs) {}

    @Test
    void runsTheCorpus() throws Exception {
        Path root = Path.of(System.getProperty("drover.corpus"));
        Duration deadline = Duration.ofSeconds(Long.getLong("drover.corpus.deadline", 60));
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".nomad") || p.toString().endsWith(".hcl")).sorted().toList();
        }
        EngineRuntime runtime = EngineRuntime.real(2);
        TaskDriver rawExec = RawExecAgent.driver(runtime);
        TaskDriver mock = new MockDriver();
        mock.init(new io.drover.driver.api.DriverContext(Map.of(), runtime.timers(), "corpus"));
        DriverCatalog catalog = new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return switch (name) {
                    case "raw_exec" -> Optional.of(rawExec);
                    case "mock", "mock_driver" -> Optional.of(mock);
                    default -> Optional.empty();
                };
            }

            @Override
            public Set<String> names() {
                return Set.of("raw_exec", "mock", "mock_driver");
            }
        };
        Engine engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                catalog, runtime);
        Map<String, Integer> outcome = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        List<Placed> placed = new ArrayList<>();
        int validating = 0;
        try {
            for (Path f : files) {
                Job job;
                try {
                    job = JobFileParser.parse(f);
                } catch (JobFileException | RuntimeException e) {
                    continue; // NomadCorpusCheck reports these
                }
                Set<String> drivers = new java.util.TreeSet<>();
                job.groups().forEach(g -> g.tasks().forEach(t -> drivers.add(t.driver())));
                if (!KNOWN.containsAll(drivers)) {
                    continue; // not a job of this corpus measure
                }
                validating++;
                if (!RUNNABLE.containsAll(drivers)) {
                    outcome.merge("not run here: uses " + drivers.stream().filter(d -> !RUNNABLE.contains(d))
                            .toList() + " (plugins not loaded by this check)", 1, Integer::sum);
                    continue;
                }
                List<AllocationState> allocs = engine.submit(marked(job));
                placed.add(new Placed(f, job, allocs.stream().map(AllocationState::id).toList()));
            }
            Instant until = Instant.now().plus(deadline);
            Map<Placed, String> verdict = new LinkedHashMap<>();
            while (Instant.now().isBefore(until) && verdict.size() < placed.size()) {
                for (Placed p : placed) {
                    if (!verdict.containsKey(p)) {
                        String v = verdict(engine, p, false);
                        if (v != null) {
                            verdict.put(p, v);
                        }
                    }
                }
                Thread.sleep(200); // polling a condition with a deadline
            }
            for (Placed p : placed) {
                verdict.computeIfAbsent(p, k -> verdict(engine, k, true));
            }
            verdict.forEach((p, v) -> {
                outcome.merge(v, 1, Integer::sum);
                lines.add(root.relativize(p.file()) + ": " + v);
            });
        } finally {
            for (Placed p : placed) {
                p.allocs().forEach(engine::stop);
            }
            for (Placed p : placed) {
                for (String id : p.allocs()) {
                    engine.terminal(id).get(60, TimeUnit.SECONDS);
                }
            }
            engine.close();
            runtime.close();
        }
        StringBuilder report = new StringBuilder();
        report.append("corpus: ").append(root).append('\n');
        report.append("validate, tasks raw_exec/exec/java/mock only: ").append(validating).append('\n');
        report.append("run (raw_exec/mock): ").append(placed.size()).append(", deadline ").append(deadline)
                .append('\n');
        outcome.forEach((k, v) -> report.append(v).append("  ").append(k).append('\n'));
        report.append('\n');
        lines.forEach(l -> report.append(l).append('\n'));
        Path out = Path.of("target", "corpus-run-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.print(report);
        assertThat(placed).as("jobs run from " + root).isNotEmpty();
    }

    /**
     * What a placed job came to: "runs" (every allocation running, every main task running), "completes" (every
     * allocation complete), a failure with its category; null while undecided (unless {@code atDeadline}).
     */
    private static String verdict(Engine engine, Placed p, boolean atDeadline) {
        boolean toCompletion = p.job().type().runsToCompletion();
        boolean allDone = true;
        boolean allRunning = true;
        for (String id : p.allocs()) {
            AllocationState a = engine.allocation(id).orElseThrow();
            if (a.clientStatus() == ClientStatus.FAILED) {
                return "fails: " + category(a);
            }
            allDone &= a.clientStatus() == ClientStatus.COMPLETE;
            allRunning &= a.clientStatus() == ClientStatus.RUNNING && a.taskStates().values().stream()
                    .anyMatch(t -> t.state() == TaskLifeState.RUNNING);
            if (!toCompletion && a.clientStatus() == ClientStatus.COMPLETE) {
                return "fails: a service's allocation ended (" + category(a) + ")";
            }
        }
        if (toCompletion && allDone) {
            return "completes";
        }
        if (!toCompletion && allRunning && atDeadline) {
            return "runs";
        }
        if (atDeadline) {
            return toCompletion ? (allRunning ? "still running at the deadline (batch)" : "fails: did not start in time")
                    : "fails: not running at the deadline";
        }
        return null;
    }

    /** Why an allocation failed, with names and numbers taken out. */
    private static String category(AllocationState a) {
        for (TaskState t : a.taskStates().values()) {
            for (TaskEvent e : t.events()) {
                String m = (e.displayMessage() + " " + e.driverError() + " " + e.setupError()).toLowerCase();
                if (e.type() == TaskEventType.ARTIFACT_DOWNLOAD_FAILED) {
                    return "needs the network (artifact download)";
                }
                if (e.type() == TaskEventType.DRIVER_FAILURE || e.type() == TaskEventType.SETUP_FAILURE) {
                    if (m.contains("no such file") || m.contains("not found") || m.contains("executable")) {
                        return "a binary missing on this host";
                    }
                    if (m.contains("port")) {
                        String shown = e.displayMessage().replaceAll("[0-9]+", "N");
                        return shown.startsWith("network: ") ? shown : "network: " + shown;
                    }
                    return e.type().wireName() + ": " + e.displayMessage().replaceAll("\"[^\"]*\"", "\"*\"");
                }
            }
        }
        for (TaskState t : a.taskStates().values()) {
            for (TaskEvent e : t.events()) {
                if (e.type() == TaskEventType.TERMINATED && e.exitCode() != 0) {
                    return e.exitCode() == 127 ? "a binary missing on this host (exit 127)"
                            : "a task exited " + e.exitCode();
                }
            }
        }
        return "failed (" + a.taskStates().keySet() + ")";
    }

    /** The job with the leak check's marker in every task's env, so that no corpus process can escape it. */
    private static Job marked(Job job) throws ReflectiveOperationException {
        List<TaskGroup> groups = new ArrayList<>();
        for (TaskGroup g : job.groups()) {
            List<Task> tasks = new ArrayList<>();
            for (Task t : g.tasks()) {
                Map<String, String> env = new LinkedHashMap<>(t.env());
                env.put(ProcessLeakCheck.MARKER_VAR, ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR));
                tasks.add(with(t, "env", env));
            }
            groups.add(with(g, "tasks", tasks));
        }
        return with(job, "groups", groups);
    }

    /** A copy of a record with one component replaced (the spec records grow; this stays as they do). */
    @SuppressWarnings("unchecked")
    private static <R extends Record> R with(R r, String component, Object value) throws ReflectiveOperationException {
        RecordComponent[] cs = r.getClass().getRecordComponents();
        Object[] args = new Object[cs.length];
        Class<?>[] types = new Class<?>[cs.length];
        for (int i = 0; i < cs.length; i++) {
            types[i] = cs[i].getType();
            args[i] = cs[i].getName().equals(component) ? value : cs[i].getAccessor().invoke(r);
        }
        return (R) r.getClass().getDeclaredConstructor(types).newInstance(args);
    }
}
