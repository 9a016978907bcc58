package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Engine#killNow} ({@code drover run} interrupted): every live task gets SIGKILL at once — no
 * shutdown_delay, no kill_signal, no kill_timeout — poststop tasks included, and a poststop task that has not
 * started never starts; every task still ends with its events. Virtual clock, times to the millisecond.
 */
class KillNowTest {
    @TempDir
    Path dataDir;

    @Test
    void aRunningTaskIsSigkilledAtOnceAndTheUnstartedPoststopNeverRuns() {
        RecordingDriver driver = new RecordingDriver(new MockDriver());
        VirtualEngine v = new VirtualEngine(dataDir, driver);
        String id = v.engine.submit(TestJobs.batch(
                task("web").runFor("1h").cfg("ignore_signals", true).killTimeout(Duration.ofSeconds(20))
                        .shutdownDelay(Duration.ofSeconds(5)),
                task("cleanup").poststop().runFor("1s"))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("web").state()
                == TaskLifeState.RUNNING, Duration.ofMinutes(1));
        v.timers.advance(Duration.ofSeconds(3));

        v.engine.killNow(id, "drover run interrupted");
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        assertThat(driver.calls).containsExactly("start web", "SIGKILL web");
        TaskEvent killing = first(a, "web", TaskEventType.KILLING).orElseThrow();
        assertThat(VirtualEngine.ms(killing)).isEqualTo(3_000);
        assertThat(killing.taskSignal()).isEqualTo("SIGKILL");
        assertThat(killing.displayMessage()).isEqualTo("Killing task: drover run interrupted");
        assertThat(first(a, "web", TaskEventType.WAITING_SHUTDOWN_DELAY)).isEmpty();
        assertThat(at(a, "web", TaskEventType.TERMINATED)).isEqualTo(3_000);
        assertThat(first(a, "web", TaskEventType.KILLED)).isPresent();
        assertThat(first(a, "cleanup", TaskEventType.STARTED)).as("poststop never starts").isEmpty();
        assertThat(first(a, "cleanup", TaskEventType.KILLING).orElseThrow().displayMessage())
                .isEqualTo("Killing task: drover run interrupted; not started");
        a.taskStates().values().forEach(t -> assertThat(t.state()).isEqualTo(TaskLifeState.DEAD));
    }

    @Test
    void aPoststopTaskAlreadyBeingStoppedIsEscalatedNow() {
        RecordingDriver driver = new RecordingDriver(new MockDriver());
        VirtualEngine v = new VirtualEngine(dataDir, driver);
        String id = v.engine.submit(TestJobs.batch(
                task("web").runFor("10ms"),
                task("cleanup").poststop().runFor("1h").cfg("ignore_signals", true)
                        .killTimeout(Duration.ofSeconds(20)))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("cleanup").state()
                == TaskLifeState.RUNNING, Duration.ofMinutes(1));

        v.engine.killNow(id, "drover run interrupted");
        v.engine.killNow(id, "again"); // idempotent
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        long killedAt = at(a, "cleanup", TaskEventType.KILLING);
        assertThat(all(a, "cleanup", TaskEventType.KILLING)).hasSize(1);
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(killedAt);
        assertThat(driver.calls).containsExactly("start web", "start cleanup", "SIGKILL cleanup");
    }
}
