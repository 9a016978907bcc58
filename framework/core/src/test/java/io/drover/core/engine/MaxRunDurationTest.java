package io.drover.core.engine;

import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import io.drover.plugins.mock.MockDriver;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A group's max_run_duration on the virtual clock: the whole allocation is stopped at its create time plus the
 * limit, whatever its tasks' restarts, with an event naming it; poststop tasks that have not started do not start
 * (as in Nomad); the deadline survives an agent restart.
 */
class MaxRunDurationTest {
    @TempDir
    Path dataDir;

    static Job job(String mainRuns, String mainExit) throws Exception {
        return JobFileParser.parse("mrd.hcl", """
                job "mrd" {
                  type = "batch"
                  group "g" {
                    max_run_duration = "30s"
                    restart {
                      attempts = 5
                      delay    = "1s"
                    }
                    task "sidecar" {
                      driver = "mock"
                      lifecycle {
                        hook    = "prestart"
                        sidecar = true
                      }
                      config { run_for = "1h" }
                    }
                    task "main" {
                      driver       = "mock"
                      kill_timeout = "2s"
                      kill_signal  = "SIGTERM"
                      config {
                        run_for   = "%s"
                        exit_code = %s
                      }
                    }
                    task "cleanup" {
                      driver = "mock"
                      lifecycle { hook = "poststop" }
                      config { run_for = "1s" }
                    }
                  }
                }
                """.formatted(mainRuns, mainExit).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theAllocationIsStoppedAtItsDeadlineAndPoststopTasksDoNotStart() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(job("1h", "0"));

        for (String t : new String[] {"sidecar", "main"}) {
            TaskEvent exceeded = first(a, t, TaskEventType.MAX_RUN_DURATION_EXCEEDED).orElseThrow();
            assertThat(VirtualEngine.ms(exceeded)).as(t).isEqualTo(30_000);
            assertThat(exceeded.displayMessage()).isEqualTo("allocation exceeded max_run_duration");
            assertThat(exceeded.details()).containsEntry("max_run_duration", "30s")
                    .containsEntry("alloc_run_time", "30s");
            assertThat(a.taskStates().get(t).failed()).as(t).isFalse();
        }
        assertThat(at(a, "main", TaskEventType.KILLING)).isEqualTo(30_000);
        assertThat(at(a, "main", TaskEventType.TERMINATED)).isEqualTo(30_000);
        assertThat(all(a, "cleanup", TaskEventType.STARTED)).isEmpty();
        assertThat(first(a, "cleanup", TaskEventType.KILLING).orElseThrow().displayMessage())
                .contains("allocation exceeded max_run_duration; not started");
        assertThat(a.desiredStatus()).isEqualTo(DesiredStatus.STOP);
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    /** A failing main task restarts every 1 s + 10 s run; the deadline is the allocation's, not a run's. */
    @Test
    void restartsDoNotMoveTheDeadline() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(job("10s", "1"));

        assertThat(all(a, "main", TaskEventType.STARTED)).extracting(VirtualEngine::ms)
                .containsExactly(0L, 11_000L, 22_000L);
        assertThat(at(a, "main", TaskEventType.MAX_RUN_DURATION_EXCEEDED)).isEqualTo(30_000);
        assertThat(at(a, "sidecar", TaskEventType.TERMINATED)).isEqualTo(30_000);
    }

    @Test
    void anAllocationDoneBeforeItsDeadlineGetsNoEvent() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(JobFileParser.parse("quick.hcl", """
                job "quick" {
                  type = "batch"
                  group "g" {
                    max_run_duration = "30s"
                    task "main" {
                      driver = "mock"
                      config { run_for = "5s" }
                    }
                  }
                }
                """.getBytes(StandardCharsets.UTF_8)));
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(all(a, "main", TaskEventType.MAX_RUN_DURATION_EXCEEDED)).isEmpty();
        assertThat(a.desiredStatus()).isEqualTo(DesiredStatus.RUN);
    }

    /** Back 20 s after the start, the deadline stays at 30 s; back after 45 s, it passed and fires at once. */
    @ParameterizedTest(name = "agent back after {0} ms")
    @CsvSource({"20000, 30000, 30s", "45000, 45000, 45s"})
    void theDeadlineIsTheCreateTimesAcrossAnAgentRestart(long restartAt, long exceededAt, String ran) throws Exception {
        SurvivingDriver driver = new SurvivingDriver();
        Job job = job("1h", "0");
        String id;
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine first = new VirtualEngine(dataDir, driver, store);
            id = first.engine.submit(job).get(0).id();
            first.runUntil(() -> first.engine.allocation(id).orElseThrow().taskStates().get("main").state()
                    == TaskLifeState.RUNNING, Duration.ofMinutes(1));
            first.engine.close();
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine second = new VirtualEngine(dataDir, driver, store, VirtualEngine.T0.plusMillis(restartAt));
            assertThat(second.engine.restore()).isEqualTo(1);
            second.runUntil(() -> second.engine.terminal(id).isDone(), Duration.ofHours(1));
            AllocationState a = second.engine.terminal(id).join();

            TaskEvent exceeded = first(a, "main", TaskEventType.MAX_RUN_DURATION_EXCEEDED).orElseThrow();
            assertThat(VirtualEngine.ms(exceeded)).isEqualTo(exceededAt);
            assertThat(exceeded.details()).containsEntry("alloc_run_time", ran);
            assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            second.awaitDurable(a);
        }
    }
}
