package io.drover.testkit.samples;

import static io.drover.core.event.TaskEventType.KILLED;
import static io.drover.core.event.TaskEventType.KILLING;
import static io.drover.core.event.TaskEventType.LEADER_DEAD;
import static io.drover.core.event.TaskEventType.MAIN_DEAD;
import static io.drover.core.event.TaskEventType.NOT_RESTARTING;
import static io.drover.core.event.TaskEventType.RECEIVED;
import static io.drover.core.event.TaskEventType.RESTARTING;
import static io.drover.core.event.TaskEventType.STARTED;
import static io.drover.core.event.TaskEventType.TASK_SETUP;
import static io.drover.core.event.TaskEventType.TERMINATED;
import static io.drover.core.state.TaskLifeState.DEAD;
import static io.drover.testkit.DroverAssertions.assertThat;

import io.drover.testkit.Allocation;
import io.drover.testkit.Drover;
import io.drover.testkit.DroverTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every file in sample-jobs/, run with the test kit as a user would test their own jobs: raw_exec and java
 * tasks are simulated by the mock driver. One short test per file; a file added to sample-jobs/ is at least run
 * by {@link #everySampleRunsToTheEnd} until it gets its own test here.
 */
@DroverTest(jobs = "../sample-jobs")
class SampleJobsTest {

    static Stream<String> sampleJobs() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("../sample-jobs"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".hcl") || n.endsWith(".json"))
                    .filter(n -> !n.startsWith("agent-")) // agent configs that go with a sample, not jobs
                    .sorted().toList().stream();
        }
    }

    /** Any sample, its real drivers simulated (exit 0 at once): ends, keeping the lifecycle contract. */
    @ParameterizedTest
    @MethodSource("sampleJobs")
    void everySampleRunsToTheEnd(String file, Drover drover) {
        drover.simulate("raw_exec", "java", "exec").stopAfter(Duration.ofHours(2)).run(file);
    }

    @Test
    void lifecycleHcl(Drover drover) {
        assertLifecycle(drover.run("lifecycle.hcl"));
    }

    @Test
    void lifecycleJson(Drover drover) {
        assertLifecycle(drover.run("lifecycle.json"));
    }

    /** init 50ms -> web 150ms (notify beside it) -> proxy stopped with SIGINT -> cleanup. */
    private static void assertLifecycle(Allocation alloc) {
        assertThat(alloc).isComplete()
                .task("init").state(DEAD).notFailed().startedAt(Duration.ZERO)
                .events().containsExactly(RECEIVED, TASK_SETUP, STARTED, TERMINATED).and()
                .task("proxy").startedAt(Duration.ZERO).killedWith("SIGINT").after(Duration.ZERO).and()
                .events().containsSubsequence(STARTED, MAIN_DEAD, KILLING, TERMINATED, KILLED).and()
                .task("web").startedAfter("init", TERMINATED).startedAt(Duration.ofMillis(50)).exitCode(0)
                .task("notify").startedAfter("web", STARTED).notFailed()
                .task("cleanup").startedAfter("web", TERMINATED).startedAfter("proxy", KILLED)
                .startedAt(Duration.ofMillis(200)).state(DEAD).notFailed()
                .and().tasksDiedInOrder("init", "notify", "web", "proxy", "cleanup");
    }

    /** 3 runs of 50ms, 100ms apart, then Not Restarting: the allocation fails. */
    @Test
    void restartHcl(Drover drover) {
        assertThat(drover.run("restart.hcl")).isFailed()
                .task("fails").failed().restarts(2).exitCode(1)
                .events().containsSubsequence(STARTED, TERMINATED, RESTARTING, STARTED, TERMINATED, RESTARTING,
                        STARTED, TERMINATED, NOT_RESTARTING);
    }

    /** The leader exits after 100ms: worker, then the sidecar, are stopped although they would run for an hour. */
    @Test
    void leaderHcl(Drover drover) {
        assertThat(drover.run("leader.hcl")).isComplete()
                .tasksDiedInOrder("leader", "worker", "sidecar")
                .task("leader").exitCode(0).notFailed()
                .task("worker").killedWith("SIGINT").after(Duration.ZERO).and()
                .events().containsSubsequence(STARTED, LEADER_DEAD, KILLING, TERMINATED, KILLED).and()
                .task("sidecar").killedWith("SIGINT").and().state(DEAD).notFailed();
    }

    /** The seed's job_spec.hcl: the poststop task runs after the main task and keeps its state and events. */
    @Test
    void poststopHcl(Drover drover) {
        assertThat(drover.simulate("raw_exec").run("poststop.hcl")).isComplete()
                .task("test-task").state(DEAD).notFailed().exitCode(0)
                .task("poststop").state(DEAD).notFailed().startedAfter("test-task", TERMINATED)
                .events().containsExactly(RECEIVED, TASK_SETUP, STARTED, TERMINATED);
    }

    /** stubborn ignores its SIGTERM: SIGKILL follows after its kill_timeout of 500ms; then report runs. */
    @Test
    void killEscalationHcl(Drover drover) {
        Allocation alloc = drover.simulate("raw_exec")
                .mock("leader", Map.of("run_for", "200ms"))
                .mock("stubborn", Map.of("run_for", "1h", "ignore_signals", true))
                .run("kill-escalation.hcl");
        assertThat(alloc).isComplete()
                .task("stubborn").killedWith("SIGKILL").after(Duration.ofMillis(500)).and().exitCode(137)
                .task("report").startedAfter("stubborn", KILLED).startedAt(Duration.ofMillis(700)).notFailed()
                .and().tasksDiedInOrder("leader", "stubborn", "report");
    }

    /** The java task (simulated: runs 300ms) then the mock poststop task. */
    @Test
    void javaHcl(Drover drover) {
        assertThat(drover.simulate("java").mock("hello", Map.of("run_for", "300ms")).run("java.hcl")).isComplete()
                .task("hello").exitCode(0).notFailed()
                .task("goodbye").startedAfter("hello", TERMINATED).startedAt(Duration.ofMillis(300)).notFailed();
    }

    /**
     * exec.hcl's lifecycle with its tasks simulated (the chroot itself needs root: ExecSampleEndToEndTest runs it
     * for real): the leader ends after 100ms, the sidecar gets its SIGTERM, then report runs.
     */
    @Test
    void execHcl(Drover drover) {
        Allocation alloc = drover.simulate("exec")
                .mock("leader", Map.of("run_for", "100ms"))
                .mock("sidecar", Map.of("run_for", "1h"))
                .run("exec.hcl");
        assertThat(alloc).isComplete()
                .task("leader").exitCode(0).notFailed()
                .task("sidecar").killedWith("SIGTERM").after(Duration.ZERO).and().state(DEAD).notFailed()
                .task("report").startedAfter("sidecar", KILLED).notFailed()
                .and().tasksDiedInOrder("leader", "sidecar", "report");
    }
}
