package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine with a durable store: what a restarted agent finds (persist, then publish; nothing forgotten). */
class RestoreTest {
    @TempDir
    Path dataDir;

    @Test
    void aFinishedAllocationComesBackUnchangedAndIsNeverRunAgain() throws Exception {
        AllocationState finished;
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), store);
            finished = v.run(TestJobs.batch(task("web").runFor("100ms"), task("cleanup").poststop().runFor("10ms")));
            v.awaitDurable(finished);
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            RecordingDriver driver = new RecordingDriver(new MockDriver());
            VirtualEngine v = new VirtualEngine(dataDir, driver, store);
            assertThat(v.engine.restore()).isEqualTo(1);
            v.runUntil(() -> v.engine.terminal(finished.id()).isDone(), Duration.ofMinutes(1));
            AllocationState again = v.engine.allocation(finished.id()).orElseThrow();
            assertThat(again.taskStates()).isEqualTo(finished.taskStates());
            assertThat(again.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(driver.calls).isEmpty();
        }
    }

    @Test
    void aLiveTaskThatCannotBeReattachedIsMarkedAndPoststopStillRuns() throws Exception {
        String id;
        int eventsBefore;
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), store);
            id = v.engine.submit(TestJobs.batch(task("web").runFor("1h"), task("cleanup").poststop().runFor("10ms")))
                    .get(0).id();
            v.runUntil(() -> v.engine.allocation(id).map(a -> a.taskStates().get("web").state()
                    == TaskLifeState.RUNNING).orElse(false), Duration.ofMinutes(1));
            eventsBefore = v.engine.allocation(id).orElseThrow().taskStates().get("web").events().size();
            v.engine.close(); // the agent goes away; the task is left running
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), store);
            v.engine.restore();
            v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
            AllocationState a = v.engine.terminal(id).join();
            var web = a.taskStates().get("web");
            assertThat(web.events()).hasSizeGreaterThan(eventsBefore);
            assertThat(web.events().subList(0, 3)).extracting(e -> e.type()).containsExactly(
                    TaskEventType.RECEIVED, TaskEventType.TASK_SETUP, TaskEventType.STARTED);
            assertThat(first(a, "web", TaskEventType.NOT_RECOVERED).orElseThrow().displayMessage())
                    .isEqualTo("Agent restarted and could not re-attach to the task (driver \"mock\" cannot "
                            + "re-attach to tasks); its exit is unknown");
            assertThat(first(a, "web", TaskEventType.TERMINATED)).isEmpty(); // never a made-up exit code
            assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
            assertThat(web.failed()).isTrue();
            assertThat(first(a, "cleanup", TaskEventType.STARTED)).isPresent();
            assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        }
    }
}
