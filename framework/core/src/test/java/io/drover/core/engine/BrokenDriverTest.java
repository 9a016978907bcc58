package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A plugin that throws from {@code start} — an exception, or a linkage error (a class missing from its JAR) —
 * gives its task a {@code Driver Failure} event; the allocation ends failed and its poststop task still runs.
 */
class BrokenDriverTest {
    @TempDir
    Path dataDir;

    @ParameterizedTest
    @ValueSource(strings = {"exception", "linkage"})
    void aDriverThatThrowsFromStartFailsTheTaskNotTheEngine(String kind) {
        Supplier<Throwable> failure = kind.equals("exception") ? () -> new IllegalStateException("boom")
                : () -> new NoClassDefFoundError("io/example/Missing");
        ForwardingTaskDriver broken = new ForwardingTaskDriver(new MockDriver()) {
            @Override
            public CompletionStage<TaskHandle> start(TaskConfig config) {
                if (config.taskName().equals("web")) {
                    Throwable t = failure.get();
                    if (t instanceof RuntimeException re) {
                        throw re;
                    }
                    throw (Error) t;
                }
                return super.start(config);
            }
        };
        AllocationState a = new VirtualEngine(dataDir, broken).run(TestJobs.batch(
                task("web").runFor("1s"),
                task("cleanup").poststop().runFor("10ms")));

        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        TaskState web = a.taskStates().get("web");
        assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(web.failed()).isTrue();
        assertThat(web.events()).extracting(TaskEvent::type).contains(TaskEventType.DRIVER_FAILURE);
        assertThat(web.events().stream().filter(e -> e.type() == TaskEventType.DRIVER_FAILURE).findFirst()
                .orElseThrow().displayMessage()).contains(kind.equals("exception") ? "boom" : "io/example/Missing");
        assertThat(a.taskStates().get("cleanup").events()).extracting(TaskEvent::type)
                .contains(TaskEventType.TERMINATED);
    }

    @org.junit.jupiter.api.Test
    void aStopDoesNotWaitForeverForADriverWhoseStartHangs() {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());
        String id = v.engine.submit(TestJobs.batch(
                task("web").cfg("start_block_for", "1h").runFor("1h").killTimeout(java.time.Duration.ofSeconds(5)),
                task("cleanup").poststop().runFor("10ms"))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("web").events().stream()
                .anyMatch(e -> e.type() == TaskEventType.TASK_SETUP), java.time.Duration.ofMinutes(1));
        v.timers.advance(java.time.Duration.ofSeconds(10));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), java.time.Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        TaskState web = a.taskStates().get("web");
        assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(web.failed()).isTrue();
        TaskEvent failure = web.events().get(web.events().size() - 1);
        assertThat(failure.type()).isEqualTo(TaskEventType.DRIVER_FAILURE);
        assertThat(failure.displayMessage()).contains("did not finish starting").contains("(5s)");
        assertThat(VirtualEngine.ms(failure)).isEqualTo(15_000); // the stop at 10 s + kill_timeout 5 s
        assertThat(a.taskStates().get("cleanup").events()).extracting(TaskEvent::type)
                .contains(TaskEventType.TERMINATED);

        // the start completes an hour later: the abandoned run is discarded, nothing is added to the record
        v.runUntil(() -> v.timers.nextDue().isEmpty(), java.time.Duration.ofHours(2));
        assertThat(v.engine.allocation(id).orElseThrow().taskStates().get("web").events()).isEqualTo(web.events());
    }
}
