package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent that died after starting a run but before recording its handle (docs/process-supervision.md, "Runs
 * without a recorded handle"): the next agent has each driver kill the unrecorded runs before it re-attaches or
 * starts anything, marks the task Not Recovered saying so, and never starts it a second time.
 */
class UnrecordedRunTest {
    @TempDir
    Path dataDir;

    /** Records the calls of {@code killUnrecordedRuns} and answers that the run of {@code killed} was killed. */
    private static final class SweepingDriver extends ForwardingTaskDriver {
        final List<String> calls = new ArrayList<>();
        final List<String> starts = new ArrayList<>();
        volatile String killed = "";

        SweepingDriver() {
            super(new MockDriver());
        }

        @Override
        public Set<String> killUnrecordedRuns(Path allocRoot, Set<String> keep) {
            calls.add(allocRoot + " keep " + keep);
            return killed.isEmpty() ? Set.of() : Set.of(killed);
        }

        @Override
        public java.util.concurrent.CompletionStage<io.drover.driver.api.TaskHandle> start(
                io.drover.driver.api.TaskConfig config) {
            starts.add(config.taskName());
            return super.start(config);
        }
    }

    @Test
    void aRunStartedWithoutARecordedHandleIsKilledMarkedAndNeverStartedAgain() throws Exception {
        String id;
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            SweepingDriver first = new SweepingDriver();
            VirtualEngine v = new VirtualEngine(dataDir, first, store);
            // the driver's start never completes: Task Setup is recorded, the handle never is
            id = v.engine.submit(TestJobs.batch(task("web").cfg("start_block_for", "1h"),
                    task("cleanup").poststop().runFor("10ms"))).get(0).id();
            v.runUntil(() -> first.starts.contains("web"), Duration.ofMinutes(1));
            v.settle();
            AllocationState before = v.engine.allocation(id).orElseThrow();
            assertThat(first(before, "web", TaskEventType.TASK_SETUP)).as("the intent is on disk first").isPresent();
            v.engine.close(); // the agent dies
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            SweepingDriver second = new SweepingDriver();
            second.killed = id + "/web/1";
            VirtualEngine v = new VirtualEngine(dataDir, second, store);
            v.engine.restore();
            assertThat(second.calls).containsExactly(dataDir.resolve("alloc") + " keep []");
            v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
            AllocationState a = v.engine.terminal(id).join();
            assertThat(first(a, "web", TaskEventType.NOT_RECOVERED).orElseThrow().displayMessage())
                    .isEqualTo("Agent restarted and could not re-attach to the task (no handle was recorded for its "
                            + "run, whose processes were found and killed); its exit is unknown");
            assertThat(a.taskStates().get("web").state()).isEqualTo(TaskLifeState.DEAD);
            assertThat(second.starts).as("never started a second time").containsExactly("cleanup");
        }
    }

    /**
     * The handle is written before the Started event; an agent killed between the two (simulated: the store drops
     * every state in which the task has started) leaves a run that the next agent re-attaches, and it records the
     * missing Started event with the run's true start time.
     */
    @Test
    void aReattachedRunWhoseStartedEventWasNotRecordedGetsItWithItsTrueStartTime() throws Exception {
        SurvivingDriver driver = new SurvivingDriver();
        String id;
        try (JournalStore real = JournalStore.open(dataDir.resolve("state"))) {
            io.drover.core.store.StateStore store = new DropStarted(real);
            VirtualEngine first = new VirtualEngine(dataDir, driver, store);
            id = first.engine.submit(TestJobs.batch(task("t").runFor("1h"))).get(0).id();
            first.runUntil(() -> driver.alive(id + "/t/1"), Duration.ofMinutes(1));
            first.settle();
            first.engine.close();
        }
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            assertThat(store.load().get(0).taskStates().get("t").events()).extracting(e -> e.type())
                    .as("on disk: no Started event").doesNotContain(TaskEventType.STARTED);
            VirtualEngine second = new VirtualEngine(dataDir, driver, store, VirtualEngine.T0.plusSeconds(5));
            second.engine.restore();
            second.settle();
            AllocationState a = second.engine.allocation(id).orElseThrow();
            assertThat(VirtualEngine.all(a, "t", TaskEventType.STARTED)).extracting(VirtualEngine::ms)
                    .as("one Started, at the run's start").containsExactly(0L);
            assertThat(a.taskStates().get("t").state()).isEqualTo(TaskLifeState.RUNNING);
            second.engine.stop(id);
            second.runUntil(() -> second.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        }
    }

    /** Writes everything but the states in which a task has started: a kill -9 right after the handle's write. */
    private static final class DropStarted implements io.drover.core.store.StateStore {
        private final io.drover.core.store.StateStore delegate;

        DropStarted(io.drover.core.store.StateStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public void persist(AllocationState state, Runnable onDurable) {
            if (state.taskStates().values().stream().noneMatch(t -> t.startedAt() != null)) {
                delegate.persist(state, onDurable);
            } else if (onDurable != null) {
                onDurable.run(); // as if written: the engine goes on, the disk never gets it
            }
        }

        @Override
        public void putHandle(String allocId, String task, java.util.Map<String, String> handle, Runnable onDurable) {
            delegate.putHandle(allocId, task, handle, onDurable);
        }

        @Override
        public void delete(String allocId, Runnable onDurable) {
            delegate.delete(allocId, onDurable);
        }

        @Override
        public List<AllocationState> load() {
            return delegate.load();
        }

        @Override
        public java.util.Map<String, java.util.Map<String, String>> handles(String allocId) {
            return delegate.handles(allocId);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }
}
