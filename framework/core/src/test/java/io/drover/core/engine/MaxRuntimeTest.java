package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.plugins.mock.MockDriver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * max_runtime (contract §3, issue 5 item 4) on the virtual clock, times to the millisecond: every lifecycle kind,
 * the restart policy, a stop in progress, the group default, and an agent restart on the same store.
 */
class MaxRuntimeTest {
    /** Restarts allowed: a run that exceeds max_runtime must still not be restarted. */
    private static final RestartPolicy THREE_RESTARTS =
            new RestartPolicy(3, Duration.ofHours(24), Duration.ofSeconds(1), RestartMode.FAIL);

    @TempDir
    Path dataDir;

    /** The task under test: runs for an hour, ignores SIGTERM, limited to 30 s, SIGKILL 2 s after SIGTERM. */
    private static TestJobs.TaskBuilder limited(UnaryOperator<TestJobs.TaskBuilder> kind) {
        return kind.apply(task("t")).runFor("1h").cfg("ignore_signals", true).maxRuntime(Duration.ofSeconds(30))
                .killSignal("SIGTERM").killTimeout(Duration.ofSeconds(2)).restart(THREE_RESTARTS);
    }

    private static TestJobs.TaskBuilder cleanup() {
        return task("cleanup").poststop().runFor("10ms")
                .cfg("stdout_string", "${DROVER_ALLOC_RESULT} ${DROVER_FAILED_TASKS}");
    }

    static Stream<Arguments> everyLifecycleKind() {
        return Stream.of(
                Arguments.of("prestart", TestJobs.batch(limited(TaskBuilderKinds.PRESTART),
                        task("web").runFor("1s"), cleanup()), 0L),
                Arguments.of("prestart sidecar", TestJobs.batch(limited(TaskBuilderKinds.PRESTART_SIDECAR),
                        task("web").runFor("1h"), cleanup()), 0L),
                Arguments.of("main", TestJobs.batch(limited(TaskBuilderKinds.MAIN), cleanup()), 0L),
                Arguments.of("poststart", TestJobs.batch(task("web").runFor("1h"),
                        limited(TaskBuilderKinds.POSTSTART), cleanup()), 0L),
                Arguments.of("poststart sidecar", TestJobs.batch(task("web").runFor("1h"),
                        limited(TaskBuilderKinds.POSTSTART_SIDECAR), cleanup()), 0L),
                Arguments.of("poststop", TestJobs.batch(task("web").runFor("100ms"),
                        limited(TaskBuilderKinds.POSTSTOP)), 100L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyLifecycleKind")
    void aRunOverItsLimitIsKilledFailedNotRestartedAndFailsTheAllocation(String kind, Job job, long startedAt)
            throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(job);

        assertThat(at(a, "t", TaskEventType.STARTED)).isEqualTo(startedAt);
        TaskEvent exceeded = first(a, "t", TaskEventType.MAX_RUNTIME_EXCEEDED).orElseThrow();
        assertThat(VirtualEngine.ms(exceeded)).isEqualTo(startedAt + 30_000);
        assertThat(exceeded.details()).containsEntry("max_runtime", "30s").containsEntry("run_time", "30s");
        assertThat(exceeded.failsTask()).isTrue();
        TaskEvent killing = first(a, "t", TaskEventType.KILLING).orElseThrow();
        assertThat(VirtualEngine.ms(killing)).isEqualTo(startedAt + 30_000);
        assertThat(killing.displayMessage()).isEqualTo("Killing task: exceeded max_runtime of 30s");
        assertThat(killing.taskSignal()).isEqualTo("SIGTERM");
        TaskEvent terminated = first(a, "t", TaskEventType.TERMINATED).orElseThrow();
        assertThat(VirtualEngine.ms(terminated)).as("SIGKILL after kill_timeout").isEqualTo(startedAt + 32_000);
        assertThat(terminated.signal()).isEqualTo(9);
        assertThat(all(a, "t", TaskEventType.STARTED)).hasSize(1);
        assertThat(all(a, "t", TaskEventType.RESTARTING)).as("restart attempts were left").isEmpty();
        TaskState t = a.taskStates().get("t");
        assertThat(t.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(t.failed()).isTrue();
        assertThat(t.restarts()).isZero();
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        if (a.taskStates().containsKey("cleanup")) {
            assertThat(at(a, "cleanup", TaskEventType.STARTED)).isEqualTo(startedAt + 32_000);
            assertThat(Files.readString(logs(a).resolve("cleanup.stdout.0"))).isEqualTo("failed t");
        }
    }

    @Test
    void theLimitIsPerRunSoARestartedRunGetsAFreshOne() {
        RestartPolicy once = new RestartPolicy(1, Duration.ofHours(1), Duration.ofSeconds(10), RestartMode.FAIL);
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(TestJobs.batch(
                task("t").runFor("25s").cfg("exit_code", 1).maxRuntime(Duration.ofSeconds(30)).restart(once)));
        assertThat(all(a, "t", TaskEventType.STARTED)).extracting(VirtualEngine::ms).containsExactly(0L, 35_000L);
        assertThat(all(a, "t", TaskEventType.TERMINATED)).extracting(VirtualEngine::ms)
                .containsExactly(25_000L, 60_000L);
        assertThat(first(a, "t", TaskEventType.MAX_RUNTIME_EXCEEDED)).isEmpty();
    }

    @Test
    void aStopInProgressKeepsItsOwnScheduleAndTheLimitNoLongerApplies() {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());
        String id = v.engine.submit(TestJobs.batch(task("t").runFor("1h").cfg("ignore_signals", true)
                .maxRuntime(Duration.ofSeconds(30)).killTimeout(Duration.ofSeconds(10)))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().clientStatus() == ClientStatus.RUNNING,
                Duration.ofMinutes(1));
        v.timers.advance(Duration.ofSeconds(25));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofHours(1));
        AllocationState a = v.engine.terminal(id).join();

        assertThat(at(a, "t", TaskEventType.KILLING)).isEqualTo(25_000);
        assertThat(first(a, "t", TaskEventType.MAX_RUNTIME_EXCEEDED)).as("the stop came first").isEmpty();
        assertThat(at(a, "t", TaskEventType.TERMINATED)).isEqualTo(35_000);
        assertThat(a.taskStates().get("t").failed()).isFalse();
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    @Test
    void aStopDuringTheMaxRuntimeKillChangesNothing() {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());
        String id = v.engine.submit(TestJobs.batch(task("t").runFor("1h").cfg("ignore_signals", true)
                .maxRuntime(Duration.ofSeconds(30)).killTimeout(Duration.ofSeconds(10)))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                .anyMatch(e -> e.type() == TaskEventType.KILLING), Duration.ofMinutes(1));
        v.timers.advance(Duration.ofSeconds(2));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofHours(1));
        AllocationState a = v.engine.terminal(id).join();

        assertThat(all(a, "t", TaskEventType.KILLING)).extracting(VirtualEngine::ms).containsExactly(30_000L);
        assertThat(at(a, "t", TaskEventType.TERMINATED)).isEqualTo(40_000);
        assertThat(a.taskStates().get("t").failed()).isTrue();
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
    }

    @Test
    void theMaxRuntimeKillSkipsShutdownDelay() {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(TestJobs.batch(
                task("proxy").prestartSidecar().runFor("1h").shutdownDelay(Duration.ofSeconds(5))
                        .maxRuntime(Duration.ofSeconds(30)),
                task("web").runFor("1h")));
        assertThat(at(a, "proxy", TaskEventType.KILLING)).isEqualTo(30_000);
        assertThat(first(a, "proxy", TaskEventType.WAITING_SHUTDOWN_DELAY)).isEmpty();
        assertThat(at(a, "web", TaskEventType.SIBLING_FAILED)).isEqualTo(30_000);
    }

    @Test
    void theGroupDefaultAppliesToEveryTaskAndATaskOverridesIt() throws Exception {
        Job job = JobFileParser.parse("max.hcl", """
                job "max" {
                  type = "batch"
                  group "g" {
                    max_runtime = "20s"
                    task "web" {
                      driver = "mock"
                      config { run_for = "1h" }
                    }
                    task "cleanup" {
                      driver      = "mock"
                      max_runtime = "5s"
                      lifecycle { hook = "poststop" }
                      config { run_for = "1h" }
                    }
                  }
                }
                """.getBytes(StandardCharsets.UTF_8));
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(job);
        assertThat(at(a, "web", TaskEventType.MAX_RUNTIME_EXCEEDED)).isEqualTo(20_000);
        assertThat(at(a, "web", TaskEventType.TERMINATED)).isEqualTo(20_000);
        assertThat(at(a, "cleanup", TaskEventType.STARTED)).isEqualTo(20_000);
        assertThat(at(a, "cleanup", TaskEventType.MAX_RUNTIME_EXCEEDED)).isEqualTo(25_000);
        assertThat(a.taskStates().get("cleanup").failed()).isTrue();
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
    }

    static Stream<Arguments> agentDownFor() {
        // agent restarted 20 s after the start: the deadline (30 s) is kept, not reset to 20 + 30 s;
        // restarted 45 s after: the deadline passed while no agent ran, so it fires at once, with the true run time
        return Stream.of(Arguments.of(20_000L, 30_000L, "30s"), Arguments.of(45_000L, 45_000L, "45s"));
    }

    @ParameterizedTest(name = "agent back after {0} ms")
    @MethodSource("agentDownFor")
    void theDeadlineComesFromThePersistedStartAcrossAnAgentRestart(long restartAt, long exceededAt, String ran)
            throws Exception {
        SurvivingDriver driver = new SurvivingDriver();
        Job job = TestJobs.batch(task("t").runFor("1h").cfg("ignore_signals", true).maxRuntime(Duration.ofSeconds(30))
                .killTimeout(Duration.ofSeconds(2)));
        String id;
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine first = new VirtualEngine(dataDir, driver, store);
            id = first.engine.submit(job).get(0).id();
            first.runUntil(() -> first.engine.allocation(id).orElseThrow().taskStates().get("t").state()
                    == TaskLifeState.RUNNING, Duration.ofMinutes(1));
            first.engine.close(); // the agent goes away; its timers with it; the task keeps running
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine second = new VirtualEngine(dataDir, driver, store,
                    VirtualEngine.T0.plusMillis(restartAt));
            assertThat(second.engine.restore()).isEqualTo(1);
            second.runUntil(() -> second.engine.terminal(id).isDone(), Duration.ofHours(1));
            AllocationState a = second.engine.terminal(id).join();

            assertThat(all(a, "t", TaskEventType.STARTED)).extracting(VirtualEngine::ms).containsExactly(0L);
            TaskEvent exceeded = first(a, "t", TaskEventType.MAX_RUNTIME_EXCEEDED).orElseThrow();
            assertThat(VirtualEngine.ms(exceeded)).isEqualTo(exceededAt);
            assertThat(exceeded.details()).containsEntry("max_runtime", "30s").containsEntry("run_time", ran);
            assertThat(at(a, "t", TaskEventType.TERMINATED)).isEqualTo(exceededAt + 2_000);
            assertThat(a.taskStates().get("t").failed()).isTrue();
            assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
            second.awaitDurable(a);
        }
    }

    private Path logs(AllocationState a) {
        return dataDir.resolve("alloc").resolve(a.id()).resolve("alloc").resolve("logs");
    }

    /** The lifecycle kinds, as builder steps. */
    private static final class TaskBuilderKinds {
        static final UnaryOperator<TestJobs.TaskBuilder> PRESTART = TestJobs.TaskBuilder::prestart;
        static final UnaryOperator<TestJobs.TaskBuilder> PRESTART_SIDECAR = TestJobs.TaskBuilder::prestartSidecar;
        static final UnaryOperator<TestJobs.TaskBuilder> MAIN = b -> b;
        static final UnaryOperator<TestJobs.TaskBuilder> POSTSTART = TestJobs.TaskBuilder::poststart;
        static final UnaryOperator<TestJobs.TaskBuilder> POSTSTART_SIDECAR = TestJobs.TaskBuilder::poststartSidecar;
        static final UnaryOperator<TestJobs.TaskBuilder> POSTSTOP = TestJobs.TaskBuilder::poststop;
    }
}
