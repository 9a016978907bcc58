package io.drover.testkit;

import io.drover.core.DroverVersion;
import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobDriverCheck;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.time.ManualExecutor;
import io.drover.driver.tck.VirtualTimers;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import io.drover.plugins.mock.MockDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs job files on Drover's real engine under a virtual clock, on the test's thread: no process starts, no
 * thread sleeps, a job that "runs for an hour" ends in milliseconds, and every event time is exact and the same
 * on every run. The JUnit extension ({@link DroverTest}) hands one to each test; {@link #open} makes one by hand.
 *
 * <h2>Drivers</h2>
 * The mock driver ({@code driver = "mock"}, Nomad's mock options) is always there. Tasks of other drivers run
 * on it when the test {@linkplain #simulate simulates} their driver: their {@code config} block is dropped and
 * they run with the mock config that {@link #mock} gives for their name, else {@code {}} (exit 0 at once).
 * The lifecycle, leader, restart, kill and max_runtime settings of every task are kept as written, so the
 * allocation's events are those a real run would have, for the behaviour the mock config describes. A test may
 * also {@linkplain #driver register} its own driver (it must take its time from the timers it gets at init).
 *
 * <h2>Contract of a run</h2>
 * {@link #run} parses the file (a refused file fails the test with the parser's one-line message), checks every
 * task's driver and config (likewise), places the job's allocations, and advances the virtual clock timer by
 * timer until every allocation is terminal, {@linkplain #stopAfter stopping} them at a given time if asked. It
 * then checks the lifecycle contract on every state the engine published (prestart before main, poststart
 * after every main started, poststop after every other task died, stop order leader, other tasks, sidecars;
 * poststop runs once; events never removed nor out of time order; every task dead at the end) and fails with
 * {@link AssertionError} if it was broken. Runs of one {@code Drover} share one engine and one clock, which
 * continues from run to run. Not thread-safe: use it from the test's thread.
 */
public final class Drover implements AutoCloseable {
    /** Where the virtual clock starts. */
    public static final Instant START = Instant.parse("2030-01-01T00:00:00Z");

    private final Path dataDir;
    private final boolean ownsDataDir;
    private Path jobsDir = Path.of("");
    private final Set<String> simulated = new LinkedHashSet<>();
    private final Map<String, Map<String, Object>> mockConfigs = new LinkedHashMap<>();
    private final Map<String, TaskDriver> drivers = new TreeMap<>();
    private Duration maxKillTimeout = Duration.ofSeconds(30);
    private Duration stopAfter;
    private Duration timeLimit = Duration.ofDays(7);

    private VirtualTimers timers;
    private ManualExecutor executor;
    private Engine engine;
    private final Map<String, List<AllocationState>> published = new LinkedHashMap<>();
    private int allocCounter;
    private boolean closed;

    private Drover(Path dataDir, boolean ownsDataDir) {
        this.dataDir = dataDir;
        this.ownsDataDir = ownsDataDir;
        drivers.put(MockDriver.NAME, new MockDriver());
    }

    /**
     * A kit whose allocation directories go under {@code dataDir}, which the caller owns (and deletes).
     * Pass null for a temporary directory that {@link #close} deletes.
     */
    public static Drover open(Path dataDir) {
        if (dataDir != null) {
            return new Drover(dataDir, false);
        }
        try {
            return new Drover(Files.createTempDirectory("drover-testkit"), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary data_dir", e);
        }
    }

    /** Relative job file names given to {@link #run(String)} resolve against {@code dir} (default: the working directory). */
    public Drover jobsDir(Path dir) {
        jobsDir = dir;
        return this;
    }

    /**
     * Runs the tasks of these drivers ({@code "raw_exec"}, {@code "java"}, ...) on the mock driver: each gets the
     * config {@link #mock} gave for its name, else {@code {}}, which exits 0 at once.
     */
    public Drover simulate(String... driverNames) {
        simulated.addAll(List.of(driverNames));
        return this;
    }

    /**
     * Runs the task named {@code task} (in any group of the job) on the mock driver with this config, whatever
     * its driver: Nomad's mock options with the values a job file would hold, e.g.
     * {@code Map.of("run_for", "1h", "ignore_signals", true)} (docs/jobs.md, "Mock driver options"). A config
     * the mock driver refuses, or a task the job does not have, fails the run.
     */
    public Drover mock(String task, Map<String, Object> config) {
        mockConfigs.put(task, Map.copyOf(config));
        return this;
    }

    /**
     * Registers a driver for the job's tasks, by its {@link TaskDriver#name()} (replacing the mock driver when it
     * is named {@code mock}). The kit calls its {@code init} once, before the first run, with an empty plugin
     * config and the virtual clock's timers, which it must use for every wait.
     */
    public Drover driver(TaskDriver driver) {
        requireNotStarted("driver");
        drivers.put(driver.name(), driver);
        return this;
    }

    /** The client's {@code max_kill_timeout}, which caps every task's kill_timeout (default 30s, as the agent's). */
    public Drover maxKillTimeout(Duration d) {
        requireNotStarted("maxKillTimeout");
        maxKillTimeout = d;
        return this;
    }

    /**
     * Stops every allocation of a run that is still live {@code d} of virtual time after it was placed (as
     * {@code drover alloc stop} would): the stop order runs, then poststop tasks. Service jobs need it, since
     * their tasks restart forever. Null (the default): no stop.
     */
    public Drover stopAfter(Duration d) {
        stopAfter = d;
        return this;
    }

    /** How much virtual time a run may take before it fails the test (default 7 days). */
    public Drover timeLimit(Duration d) {
        timeLimit = d;
        return this;
    }

    /** The virtual clock's time now. */
    public Instant now() {
        return timers == null ? START : timers.now();
    }

    /** Runs a job file that places exactly one allocation; see the class contract. */
    public Allocation run(String jobFile) {
        return run(jobsDir.resolve(jobFile));
    }

    /** Runs a job file that places exactly one allocation; see the class contract. */
    public Allocation run(Path jobFile) {
        return single(runAll(jobFile));
    }

    /** Runs a parsed (or built) job that places exactly one allocation; see the class contract. */
    public Allocation run(Job job) {
        return single(runAll(job));
    }

    /** Runs a job file; one {@link Allocation} per allocation, in group then index order. */
    public List<Allocation> runAll(Path jobFile) {
        Job job;
        try {
            job = JobFileParser.parse(jobFile);
        } catch (JobFileException e) {
            // every problem of the file, the first on the first line as before
            throw new AssertionError("job file refused: " + e.problems().stream().map(Throwable::getMessage)
                    .collect(Collectors.joining("\n")));
        }
        return runAll(job);
    }

    /** Runs a parsed (or built) job; one {@link Allocation} per allocation, in group then index order. */
    public List<Allocation> runAll(Job job) {
        if (closed) {
            throw new IllegalStateException("this Drover is closed");
        }
        Job rewritten = JobRewrite.apply(job, simulated, mockConfigs);
        List<JobFileException> problems = JobDriverCheck.check(rewritten, catalog());
        if (!problems.isEmpty()) {
            throw new AssertionError("job refused:\n" + problems.stream().map(Throwable::getMessage)
                    .collect(Collectors.joining("\n")));
        }
        Engine e = engine();
        Instant placedAt = timers.now();
        List<String> ids = e.submit(rewritten).stream().map(AllocationState::id).toList();
        Optional<Timers.Cancellable> stop = Optional.ofNullable(stopAfter)
                .map(d -> timers.schedule(d, () -> ids.forEach(e::stop)));
        try {
            runUntilTerminal(ids, placedAt.plus(timeLimit));
        } finally {
            stop.ifPresent(Timers.Cancellable::cancel);
        }
        List<Allocation> out = new ArrayList<>();
        for (String id : ids) {
            Allocation a = new Allocation(published.getOrDefault(id, List.of()), placedAt);
            List<String> broken = LifecycleInvariants.violations(a, maxKillTimeout);
            if (!broken.isEmpty()) {
                throw new AssertionError("Drover broke its lifecycle contract in " + a + " (a Drover bug):\n  "
                        + String.join("\n  ", broken));
            }
            out.add(a);
        }
        return out;
    }

    private void runUntilTerminal(List<String> ids, Instant deadline) {
        while (true) {
            executor.drain();
            List<String> live = ids.stream().filter(id -> !engine.terminal(id).isDone()).toList();
            if (live.isEmpty()) {
                return;
            }
            Optional<Instant> next = timers.nextDue();
            if (next.isEmpty()) {
                throw new AssertionError("allocation(s) " + names(live) + " cannot end: nothing is left to run "
                        + "(a registered driver never completed a start or an exit?)");
            }
            if (next.get().isAfter(deadline)) {
                throw new AssertionError("allocation(s) " + names(live) + " still live after " + timeLimit
                        + " of virtual time (a service job runs until it is stopped: use stopAfter)");
            }
            timers.runNextTimer();
        }
    }

    private String names(List<String> ids) {
        return ids.stream().map(id -> engine.allocation(id).map(AllocationState::name).orElse(id)).toList().toString();
    }

    private static Allocation single(List<Allocation> all) {
        if (all.size() != 1) {
            throw new IllegalStateException("the job placed " + all.size() + " allocations: use runAll");
        }
        return all.get(0);
    }

    private Engine engine() {
        if (engine != null) {
            return engine;
        }
        timers = new VirtualTimers(START);
        executor = new ManualExecutor();
        for (TaskDriver d : drivers.values()) {
            try {
                d.init(new DriverContext(Map.of(), timers, DroverVersion.VERSION));
            } catch (DriverException e) {
                throw new IllegalStateException("driver " + d.name() + " refused to start: " + e.getMessage(), e);
            }
        }
        engine = new Engine(new EngineConfig(dataDir, maxKillTimeout, GcKillPolicy.PRESERVE_STATES), catalog(),
                new EngineRuntime(timers, executor, null), null,
                () -> String.format("00000000-0000-4000-8000-%012d", ++allocCounter));
        engine.addListener(s -> published.computeIfAbsent(s.id(), k -> new ArrayList<>()).add(s));
        return engine;
    }

    private DriverCatalog catalog() {
        Map<String, TaskDriver> fixed = Map.copyOf(drivers);
        return new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return Optional.ofNullable(fixed.get(name));
            }

            @Override
            public Set<String> names() {
                return fixed.keySet();
            }
        };
    }

    private void requireNotStarted(String what) {
        if (engine != null) {
            throw new IllegalStateException(what + " must be set before the first run");
        }
    }

    /** Ends the engine and deletes the temporary data_dir if the kit made it. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (engine != null) {
            engine.close();
        }
        if (ownsDataDir) {
            try (Stream<Path> all = Files.walk(dataDir)) {
                all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary directory left behind is not worth failing a test for
            }
        }
    }
}
