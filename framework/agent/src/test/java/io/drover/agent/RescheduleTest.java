package io.drover.agent;

import io.drover.core.reschedule.Rescheduler;
import static io.drover.agent.MockJobs.NO_RESTARTS;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.ClusterFields;
import io.drover.core.spec.GroupRuntime;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobRuntime;
import io.drover.core.spec.JobType;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.time.ManualExecutor;
import io.drover.core.time.Nanos;
import io.drover.driver.tck.VirtualTimers;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad's {@code reschedule} on one node: a real engine and job registry with the mock driver, on a virtual clock
 * and a manually drained executor (the test thread runs everything; time moves timer by timer, no sleeps).
 */
class RescheduleTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dataDir;

    private VirtualTimers timers;
    private final ManualExecutor executor = new ManualExecutor();
    private Engine engine;
    private JobRegistry registry;
    private Rescheduler rescheduler;
    private io.drover.core.driver.DriverRegistry drivers;

    @BeforeEach
    void start() throws Exception {
        timers = new VirtualTimers(T0);
        // the real mock plugin JAR, loaded as the agent loads it
        Path plugins = java.nio.file.Files.createDirectories(dataDir.resolve("plugins"));
        java.nio.file.Files.setPosixFilePermissions(plugins,
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        try (var jars = java.nio.file.Files.list(Path.of(System.getProperty("drover.test.plugins",
                "target/test-plugins")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                java.nio.file.Files.copy(jar, plugins.resolve(jar.getFileName()));
            }
        }
        drivers = io.drover.core.driver.DriverRegistry.load(plugins, Map.of(), timers);
        DriverCatalog catalog = drivers;
        AtomicInteger n = new AtomicInteger();
        engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES), catalog,
                new EngineRuntime(timers, executor, null), () -> String.format("a%02d", n.incrementAndGet()));
        registry = new JobRegistry(engine);
        rescheduler = new Rescheduler(timers, executor, "node-1");
        registry.rescheduler(rescheduler);
        engine.addListener(rescheduler);
    }

    @AfterEach
    void close() {
        engine.close();
        drivers.close();
    }

    /** A job of one group of one mock task that exits 1 after {@code runFor}, not restarted. */
    private static Job failing(String id, JobType type, Duration runFor, Map<String, Object> reschedule) {
        ClusterFields cluster = reschedule.isEmpty() ? ClusterFields.NONE
                : new ClusterFields(Map.of("ReschedulePolicy", reschedule));
        TaskGroup group = new TaskGroup("g", 1, NO_RESTARTS, null,
                List.of(task("t", "run_for", runFor.toMillis() + "ms", "exit_code", 1)), 0, GroupRuntime.NONE,
                cluster);
        return new Job(id, id, type, List.of("dc1"), List.of(group), "test", JobRuntime.DEFAULT, List.of());
    }

    private List<AllocationState> allocs(String job) {
        return registry.allocations(registry.job(job).orElseThrow());
    }

    private void runUntil(BooleanSupplier done) {
        Instant deadline = timers.now().plus(Duration.ofDays(3));
        while (true) {
            while (executor.drain() > 0) {
                // run all that is runnable now
            }
            if (done.getAsBoolean()) {
                return;
            }
            Optional<Instant> next = timers.nextDue();
            if (next.isEmpty() || next.get().isAfter(deadline)) {
                throw new AssertionError("stuck: condition not reached, nothing left to run before " + deadline);
            }
            timers.runNextTimer();
        }
    }

    /** Runs every timer there is (nothing is left armed), and returns the job's allocations. */
    private List<AllocationState> runOut(String job) {
        runUntil(() -> false == timers.nextDue().isPresent());
        return allocs(job);
    }

    private static long sec(long nanos) {
        return (nanos - Nanos.of(T0)) / S;
    }

    private List<Long> delays(String allocId) {
        return rescheduler.lineage(allocId).events().stream().map(e -> e.delay().toSeconds()).toList();
    }

    @Test
    void aFailedBatchAllocationIsReplacedOnceAfterFiveSecondsByDefault() {
        registry.register(failing("b", JobType.BATCH, Duration.ofSeconds(1), Map.of()));
        List<AllocationState> all = runOut("b");

        assertThat(all).extracting(AllocationState::id).containsExactly("a01", "a02");
        assertThat(all).allSatisfy(a -> assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED));
        AllocationState first = all.get(0);
        AllocationState second = all.get(1);
        assertThat(second.name()).isEqualTo(first.name());
        assertThat(second.job()).isEqualTo(first.job());
        assertThat(sec(first.terminalAt())).isEqualTo(1);
        assertThat(sec(second.createTime())).isEqualTo(6); // failure + the default 5 s
        // the failed one is kept whole: its task's events are all there
        assertThat(first.taskStates().get("t").events()).isNotEmpty();

        Rescheduler.Lineage l1 = rescheduler.lineage("a01");
        Rescheduler.Lineage l2 = rescheduler.lineage("a02");
        assertThat(l1.previous()).isNull();
        assertThat(l1.next()).isEqualTo("a02");
        assertThat(l1.events()).isEmpty();
        assertThat(l2.previous()).isEqualTo("a01");
        assertThat(l2.next()).isNull();
        assertThat(l2.events()).singleElement().satisfies(e -> {
            assertThat(e.prevAllocId()).isEqualTo("a01");
            assertThat(e.prevNodeId()).isEqualTo("node-1");
            assertThat(e.delay()).isEqualTo(Duration.ofSeconds(5));
            assertThat(sec(e.rescheduleTime())).isEqualTo(6);
        });
        assertThat(rescheduler.pending("a02")).isFalse(); // 1 attempt in 24 h: used
    }

    @Test
    void aServiceDoublesItsDelayUpToMaxDelay() {
        registry.register(failing("s", JobType.SERVICE, Duration.ofSeconds(1), Map.of("Delay", 10 * S,
                "DelayFunction", "exponential", "MaxDelay", 35 * S, "Unlimited", true)));
        runUntil(() -> allocs("s").size() == 5);

        List<AllocationState> all = allocs("s");
        assertThat(delays(all.get(4).id())).containsExactly(10L, 20L, 35L, 35L);
        // each placed its delay after the previous one's failure (each runs 1 s)
        assertThat(all.stream().map(a -> sec(a.createTime())).toList()).containsExactly(0L, 11L, 32L, 68L, 104L);
        assertThat(rescheduler.lineage(all.get(2).id()).previous()).isEqualTo(all.get(1).id());
        assertThat(rescheduler.lineage(all.get(2).id()).next()).isEqualTo(all.get(3).id());
        registry.stop("s");
        runOut("s");
    }

    @Test
    void theServiceDefaultIsUnlimitedExponentialFromThirtySeconds() {
        registry.register(failing("d", JobType.SERVICE, Duration.ofSeconds(1), Map.of()));
        runUntil(() -> allocs("d").size() == 4);
        assertThat(delays(allocs("d").get(3).id())).containsExactly(30L, 60L, 120L);
        registry.stop("d");
        runOut("d");
    }

    @Test
    void attemptsCountOnlyWithinTheInterval() {
        // 2 attempts in 1 h: the original and 2 replacements, then no more
        registry.register(failing("w", JobType.BATCH, Duration.ofSeconds(1), Map.of("Attempts", 2L,
                "Interval", 3600 * S, "Delay", 5 * S, "DelayFunction", "constant")));
        assertThat(runOut("w")).hasSize(3);

        // 1 attempt in 10 s, and each run lasts 20 s: the previous attempt is always out of the interval
        registry.register(failing("x", JobType.BATCH, Duration.ofSeconds(20), Map.of("Attempts", 1L,
                "Interval", 10 * S, "Delay", 5 * S, "DelayFunction", "constant")));
        runUntil(() -> allocs("x").size() == 4);
        assertThat(delays(allocs("x").get(3).id())).containsExactly(5L, 5L, 5L);
        registry.stop("x");
        runOut("x");
    }

    @Test
    void zeroAttemptsWithoutUnlimitedNeverReschedules() {
        registry.register(failing("z", JobType.SERVICE, Duration.ofSeconds(1), Map.of("Attempts", 0L,
                "Unlimited", false)));
        assertThat(runOut("z")).singleElement().satisfies(a -> {
            assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(rescheduler.lineage(a.id()).next()).isNull();
        });
    }

    @Test
    void systemJobsNeverReschedule() {
        registry.register(failing("sys", JobType.SYSTEM, Duration.ofSeconds(1), Map.of("Attempts", 3L,
                "Interval", 3600 * S, "Delay", 5 * S)));
        assertThat(runOut("sys")).hasSize(1);
    }

    @Test
    void aJobStopCancelsThePendingReschedule() {
        registry.register(failing("c", JobType.BATCH, Duration.ofSeconds(1), Map.of()));
        runUntil(() -> rescheduler.pending("a01"));
        assertThat(sec(Nanos.of(timers.now()))).isLessThan(6);

        registry.stop("c");
        assertThat(rescheduler.pending("a01")).isFalse();
        assertThat(runOut("c")).extracting(AllocationState::id).containsExactly("a01");
    }

    @Test
    void aReRegistrationCancelsThePendingRescheduleOfTheOldVersion() {
        registry.register(failing("r", JobType.BATCH, Duration.ofSeconds(1), Map.of()));
        runUntil(() -> rescheduler.pending("a01"));
        registry.register(failing("r", JobType.BATCH, Duration.ofSeconds(2), Map.of("Attempts", 0L)));
        // the new version's allocation (a02) fails and, with 0 attempts, is not replaced; a01 is not either
        assertThat(runOut("r")).extracting(AllocationState::id).containsExactly("a01", "a02");
    }

    @Test
    void anAgentRestartRebuildsTheLineageAndArmsWhatWasPending() {
        registry.register(failing("p", JobType.SERVICE, Duration.ofSeconds(1), Map.of("Delay", 10 * S,
                "DelayFunction", "exponential", "MaxDelay", 3600 * S, "Unlimited", true)));
        runUntil(() -> allocs("p").size() == 3 && rescheduler.pending(allocs("p").get(2).id()));
        List<AllocationState> before = allocs("p");

        // a new rescheduler given what a restarted agent restores: the same allocations
        Rescheduler again = new Rescheduler(timers, executor, "node-1");
        again.restore(List.of(before));
        assertThat(again.lineage(before.get(1).id()).previous()).isEqualTo(before.get(0).id());
        assertThat(again.lineage(before.get(1).id()).next()).isEqualTo(before.get(2).id());
        assertThat(again.lineage(before.get(2).id()).events()).extracting(e -> e.delay().toSeconds())
                .containsExactly(10L, 20L);
        assertThat(again.lineage(before.get(2).id()).events()).extracting(e -> sec(e.rescheduleTime()))
                .containsExactly(sec(before.get(1).createTime()), sec(before.get(2).createTime()));
        assertThat(again.pending(before.get(2).id())).isTrue();
        again.cancel(List.of(before.get(2).id()));
        registry.stop("p");
        runOut("p");
    }

    @Test
    void aRestartDoesNotLinkAFailedAllocationStoppedBeforeTheSameJobWasRegisteredAgain() {
        Job job = failing("q", JobType.BATCH, Duration.ofSeconds(1), Map.of());
        registry.register(job);
        runUntil(() -> rescheduler.pending("a01"));
        registry.stop("q");
        runUntil(() -> engine.allocation("a01").orElseThrow().desiredStatus()
                == io.drover.core.state.DesiredStatus.STOP);
        timers.advance(Duration.ofSeconds(1));
        registry.register(job); // a new version with the same content: a02, which fails and is replaced by a03
        List<AllocationState> all = runOut("q");
        assertThat(all).extracting(AllocationState::id).containsExactly("a01", "a02", "a03");
        assertThat(rescheduler.lineage("a01").next()).isNull();

        Rescheduler again = new Rescheduler(timers, executor, "node-1");
        again.restore(List.of(all));
        assertThat(again.lineage("a01").next()).isNull();
        assertThat(again.lineage("a02").previous()).isNull();
        assertThat(again.lineage("a02").next()).isEqualTo("a03");
        assertThat(again.lineage("a03").events()).singleElement()
                .satisfies(e -> assertThat(e.prevAllocId()).isEqualTo("a02"));
        assertThat(again.pending("a01")).isFalse();
        assertThat(again.pending("a03")).isFalse(); // batch: its 1 attempt is used
    }

}
