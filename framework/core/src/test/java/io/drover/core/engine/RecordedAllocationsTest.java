package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.core.store.JournalStore;
import io.drover.core.testing.GatedStore;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An allocation counts as recorded (and listings show it) only once a state of it is on disk, so a client never
 * sees an id that a {@code kill -9} of the agent could erase. Reading by id is not filtered.
 */
class RecordedAllocationsTest {
    @TempDir
    Path dataDir;

    @Test
    void anAllocationIsRecordedOnlyOnceItsPlacementIsDurable() throws Exception {
        try (JournalStore real = JournalStore.open(dataDir.resolve("state"))) {
            GatedStore gate = new GatedStore(real);
            VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), gate);
            gate.hold();
            String id = v.engine.submit(TestJobs.batch(task("web").runFor("1h"))).get(0).id();
            v.executor.drain();
            gate.awaitHeld(java.time.Duration.ofSeconds(20));

            assertThat(v.engine.isRecorded(id)).isFalse();
            assertThat(v.engine.recorded(List.of(id))).isNotDone();
            assertThat(v.engine.recordedAllocations()).isEmpty();
            assertThat(v.engine.allocations()).extracting(AllocationState::id).containsExactly(id);
            assertThat(v.engine.allocation(id)).isPresent();

            gate.release();
            v.settle();
            assertThat(v.engine.isRecorded(id)).isTrue();
            assertThat(v.engine.recorded(List.of(id))).isDone();
            assertThat(v.engine.recordedAllocations()).extracting(AllocationState::id).containsExactly(id);
            v.engine.stop(id);
            v.settle();
        }
    }
}
