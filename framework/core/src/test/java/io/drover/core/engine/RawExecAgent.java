package io.drover.core.engine;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.rawexec.RawExecDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A durable engine with the real raw_exec driver, as an agent builds it, for {@link CrashRecoveryTest}: the test
 * builds one in-process after a restart; {@link #main} runs one in a child JVM that the test kills with
 * {@code kill -9}.
 */
final class RawExecAgent {
    static final String QUICK = "quick";
    static final String LONG = "long";
    /** Ends with exit code 7 once the test writes to its {@code gate} FIFO while no agent runs. */
    static final String DOWN = "down";
    /** Ends with exit code 9 once the test writes to its {@code gate} FIFO after the re-attach. */
    static final String UP = "up";
    static final int ALLOCATIONS = 3;
    static final String STARTED = "started ";

    private RawExecAgent() {}

    static RawExecDriver driver(EngineRuntime runtime) throws DriverException {
        RawExecDriver rawExec = new RawExecDriver(); // loaded directly, enabled through its plugin config
        rawExec.init(new DriverContext(Map.of("enabled", true), runtime.timers(), "test"));
        return rawExec;
    }

    static Engine engine(Path dataDir, JournalStore store, TaskDriver driver, EngineRuntime runtime) {
        DriverCatalog catalog = new DriverCatalog() {
            @Override
            public Optional<TaskDriver> driver(String name) {
                return Optional.of(driver).filter(d -> d.name().equals(name));
            }

            @Override
            public Set<String> names() {
                return Set.of(driver.name());
            }
        };
        return new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES), catalog,
                runtime, store, new java.util.function.Supplier<>() {
                    private final java.util.concurrent.atomic.AtomicInteger n =
                            new java.util.concurrent.atomic.AtomicInteger();

                    @Override
                    public String get() {
                        return "alloc-crash-" + n.incrementAndGet();
                    }
                });
    }

    /**
     * Three groups, one allocation each (so that one task's failure stops no task of another): {@code quick}
     * ends with exit code 7 after two seconds; {@code long} ignores SIGTERM, writes a line once its FIFO is
     * written to and runs until killed; {@link #DOWN} and {@link #UP} wait on a FIFO in their task dir.
     */
    static Job job(String marker) {
        RestartPolicy noRestart = new RestartPolicy(0, Duration.ofMinutes(1), Duration.ofSeconds(1), RestartMode.FAIL);
        String gate = "mkfifo gate && read x < gate; echo \"$NOMAD_TASK_NAME ended\"; exit ";
        return new Job("crash", "crash", JobType.BATCH, List.of("dc1"), List.of(
                new TaskGroup("a", 1, noRestart, null, List.of(task(QUICK, "sleep 2; exit 7", marker, noRestart),
                        task(LONG,
                        "trap '' TERM; mkfifo gate && read x < gate; echo written-while-down; sleep 1000", marker,
                        noRestart)), 0),
                new TaskGroup("b", 1, noRestart, null, List.of(task(DOWN, gate + 7, marker, noRestart)), 0),
                new TaskGroup("c", 1, noRestart, null, List.of(task(UP, gate + 9, marker, noRestart)), 0)),
                "test");
    }

    private static Task task(String name, String script, String marker, RestartPolicy restart) {
        return new Task(name, "raw_exec", Map.of("command", "sh", "args", List.of("-c", script)),
                Map.of(io.drover.process.ProcessLeakCheck.MARKER_VAR, marker), false, null, Duration.ofMillis(300),
                "SIGTERM", Duration.ZERO, null, LogConfig.DEFAULT, restart, 0);
    }

    /**
     * Args: data dir. Submits {@link #job}, prints {@code started} once every task's Started event is durable
     * (listeners see only persisted state), then waits to be killed.
     */
    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        String marker = System.getenv(io.drover.process.ProcessLeakCheck.MARKER_VAR);
        EngineRuntime runtime = EngineRuntime.real(2);
        JournalStore store = JournalStore.open(dataDir.resolve("state"));
        Engine engine = engine(dataDir, store, driver(runtime), runtime);
        java.util.Set<String> started = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicBoolean printed = new java.util.concurrent.atomic.AtomicBoolean();
        engine.addListener(state -> {
            boolean allStarted = state.taskStates().values().stream().allMatch(t -> t.events().stream()
                    .anyMatch(e -> e.type() == io.drover.core.event.TaskEventType.STARTED));
            if (allStarted) {
                started.add(state.id());
            }
            if (started.size() == ALLOCATIONS && printed.compareAndSet(false, true)) {
                System.out.println(STARTED.trim());
                System.out.flush();
            }
        });
        engine.submit(job(marker));
        new java.util.concurrent.CountDownLatch(1).await(); // until kill -9
    }
}
