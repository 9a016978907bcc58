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
}
