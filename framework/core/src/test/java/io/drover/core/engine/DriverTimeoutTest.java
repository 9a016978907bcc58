package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static io.drover.core.engine.VirtualEngine.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.Timers;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver that does not answer never holds a task (docs/faults.md, "Driver plugins that throw, hang or die"):
 * a start past {@code driver_start_timeout} is a recoverable start error, a run whose exit future fails or never
 * completes ends with a {@code Driver Failure} ("lost track"), a driver that throws from signal or destroy does
 * not stop a stop. Virtual clock: every time is asserted to the millisecond.
 */
class DriverTimeoutTest {
    private static final RestartPolicy ONCE =
            new RestartPolicy(1, Duration.ofMinutes(10), Duration.ofSeconds(1), RestartMode.FAIL);

    @TempDir
    Path dataDir;

    @Test
    void aStartPastTheStartTimeoutIsARecoverableStartErrorAndALateStartIsDiscarded() throws Exception {
        MockDriver mock = new MockDriver();
        VirtualEngine v = new VirtualEngine(dataDir, mock, Duration.ofSeconds(30), Duration.ofSeconds(2));
        String id = v.engine.submit(TestJobs.batch(
                task("web").cfg("start_block_for", "1h").runFor("1s").restart(ONCE),
                task("cleanup").poststop().runFor("10ms"))).get(0).id();
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        TaskState web = a.taskStates().get("web");
        assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(web.failed()).isTrue();
        List<TaskEvent> failures = all(a, "web", TaskEventType.DRIVER_FAILURE);
        assertThat(failures).extracting(VirtualEngine::ms).containsExactly(2_000L, 5_000L); // 2s, then 1s delay + 2s
        assertThat(failures.get(0).displayMessage()).isEqualTo("driver \"mock\" did not finish starting the "
                + "task within driver_start_timeout (2s); the run is abandoned and killed if it ever starts");
        assertThat(at(a, "web", TaskEventType.RESTARTING)).isEqualTo(2_000);
        assertThat(at(a, "web", TaskEventType.NOT_RESTARTING)).isEqualTo(5_000);
        assertThat(web.restarts()).isEqualTo(1);
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(5_010);

        // both starts complete an hour later: discarded (killed, destroyed), nothing added to the record
        v.runUntil(() -> v.timers.nextDue().isEmpty(), Duration.ofHours(2));
        assertThat(v.engine.allocation(id).orElseThrow().taskStates().get("web").events()).isEqualTo(web.events());
        for (int run = 1; run <= 2; run++) {
            String taskId = id + "/web/" + run;
            assertThatThrownBy(() -> mock.inspect(taskId)).as(taskId).isInstanceOf(TaskNotFoundException.class);
        }
    }

    @Test
    void aStartJustInsideTheStartTimeoutRuns() {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), Duration.ofSeconds(30), Duration.ofSeconds(2));
        String id = v.engine.submit(TestJobs.batch(task("web").cfg("start_block_for", "1999ms").runFor("1s")))
                .get(0).id();
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(at(a, "web", TaskEventType.STARTED)).isEqualTo(1_999);
        assertThat(all(a, "web", TaskEventType.DRIVER_FAILURE)).isEmpty();
    }

    @Test
    void aRunWhoseExitFutureFailsIsLostTrackOfAndTheRestartPolicyApplies() {
        ForwardingTaskDriver dying = new ForwardingTaskDriver(new MockDriver()) {
            private volatile Timers timers;

            @Override
            public void init(DriverContext context) throws DriverException {
                timers = context.timers();
                super.init(context);
            }

            @Override
            public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
                if (!taskId.endsWith("/web/1")) {
                    return super.awaitExit(taskId);
                }
                // the plugin's watcher dies 500 ms into the run
                CompletableFuture<ExitResult> dead = new CompletableFuture<>();
                timers.schedule(Duration.ofMillis(500),
                        () -> dead.completeExceptionally(new IllegalStateException("watcher thread died")));
                return dead;
            }

            @Override
            public void destroy(String taskId) {
                super.destroy(taskId);
                throw new IllegalStateException("destroy exploded");
            }
        };
        VirtualEngine v = new VirtualEngine(dataDir, dying, Duration.ofSeconds(30), Duration.ofSeconds(2));
        AllocationState a = v.run(TestJobs.batch(task("web").runFor("1s").restart(ONCE),
                task("cleanup").poststop().runFor("10ms")));

        TaskEvent lost = all(a, "web", TaskEventType.DRIVER_FAILURE).get(0);
        assertThat(ms(lost)).isEqualTo(500);
        assertThat(lost.displayMessage()).isEqualTo("lost track of the task: watcher thread died");
        assertThat(at(a, "web", TaskEventType.RESTARTING)).isEqualTo(500);
        assertThat(at(a, "web", TaskEventType.TERMINATED)).isEqualTo(2_500); // second run: 1.5 s + 1 s
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(2_510);
    }

    @Test
    void aStopOfARunWhoseExitNeverComesEndsAGraceAfterSigkill() {
        ForwardingTaskDriver silent = new ForwardingTaskDriver(new MockDriver()) {
            @Override
            public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
                if (!taskId.contains("/web/")) {
                    return super.awaitExit(taskId);
                }
                return new CompletableFuture<>(); // the plugin's internal thread died: never completed
            }
        };
        VirtualEngine v = new VirtualEngine(dataDir, silent, Duration.ofSeconds(30), Duration.ofSeconds(2));
        AllocationState a = stopAtTenSeconds(v, Duration.ofSeconds(3));

        TaskState web = a.taskStates().get("web");
        assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(web.failed()).isTrue();
        assertThat(at(a, "web", TaskEventType.KILLING)).isEqualTo(10_000);
        TaskEvent lost = all(a, "web", TaskEventType.DRIVER_FAILURE).get(0);
        assertThat(ms(lost)).isEqualTo(18_000); // SIGKILL at 13 s, then the grace: max(kill timeout, 5 s)
        assertThat(lost.displayMessage())
                .isEqualTo("lost track of the task: driver \"mock\" did not report its end within 5s of SIGKILL");
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(18_010);
    }

    @Test
    void aDriverThatThrowsFromSignalDoesNotHoldAStop() {
        ForwardingTaskDriver deaf = new ForwardingTaskDriver(new MockDriver()) {
            @Override
            public void signal(String taskId, String signal) throws DriverException {
                throw new IllegalStateException("signal exploded");
            }
        };
        VirtualEngine v = new VirtualEngine(dataDir, deaf, Duration.ofSeconds(30), Duration.ofSeconds(2));
        AllocationState a = stopAtTenSeconds(v, Duration.ofSeconds(8));

        TaskState web = a.taskStates().get("web");
        assertThat(web.failed()).isTrue();
        // the kill signal fails: SIGKILL at once, which fails too; then the grace of max(8 s, 5 s)
        TaskEvent killed = all(a, "web", TaskEventType.KILLED).get(0);
        assertThat(ms(killed)).isEqualTo(10_000);
        assertThat(killed.displayMessage()).isEqualTo("failed to kill task: signal exploded");
        assertThat(at(a, "web", TaskEventType.DRIVER_FAILURE)).isEqualTo(18_000);
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(18_010);
    }

    /**
     * Runs a batch job of a one-hour task {@code web} (with that kill timeout) and a poststop task {@code cleanup},
     * stops it at 10 s (virtual), and returns its terminal state.
     */
    private static AllocationState stopAtTenSeconds(VirtualEngine v, Duration killTimeout) {
        String id = v.engine.submit(TestJobs.batch(task("web").runFor("1h").killTimeout(killTimeout),
                task("cleanup").poststop().runFor("10ms"))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("web").state()
                == TaskLifeState.RUNNING, Duration.ofMinutes(1));
        v.timers.advance(Duration.ofSeconds(10));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        return v.engine.terminal(id).join();
    }
}
