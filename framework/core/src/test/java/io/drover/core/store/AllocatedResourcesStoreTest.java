package io.drover.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocatedResources;
import io.drover.core.state.AllocationState;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An allocation's ports survive the store (full record, then deltas), so a restarted agent keeps them reserved. */
class AllocatedResourcesStoreTest {
    @TempDir
    Path tmp;

    @Test
    void portsRoundTripThroughFullRecordsAndDeltas() throws Exception {
        Job job = StoreFixtures.job("web");
        AllocationState plain = StoreFixtures.initial(job, "alloc-1", 1_000L);
        AllocatedResources res = new AllocatedResources(new AllocatedResources.Shared(
                List.of(new AllocatedResources.PortMapping("http", 20001, 8080, "127.0.0.1")),
                List.of(new AllocatedResources.NetworkResource("host", "127.0.0.1", List.of(),
                        List.of(new AllocatedResources.NetworkPort("http", 20001, 8080))))));
        AllocationState first = new AllocationState(plain.id(), plain.name(), plain.jobId(), plain.taskGroup(),
                plain.index(), plain.clientStatus(), plain.clientDescription(), plain.desiredStatus(),
                plain.desiredDescription(), plain.createTime(), plain.modifyTime(), plain.taskStates(), job, res);
        AllocationState later = StoreFixtures.next(first, "main", 2_000L);
        assertThat(later.allocatedResources()).as("fixtures keep the resources").isEqualTo(res);
        AllocationState other = StoreFixtures.initial(job, "alloc-2", 1_000L);
        try (JournalStore store = JournalStore.open(tmp.resolve("state"))) {
            JournalStoreTest.persistAll(store, List.of(first, later, other));
        }
        try (JournalStore store = JournalStore.open(tmp.resolve("state"))) {
            var loaded = store.load();
            AllocationState back = loaded.stream().filter(a -> a.id().equals("alloc-1")).findFirst().orElseThrow();
            assertThat(back.allocatedResources()).isEqualTo(res);
            assertThat(back).isEqualTo(later);
            assertThat(loaded.stream().filter(a -> a.id().equals("alloc-2")).findFirst().orElseThrow()
                    .allocatedResources()).isNull();
        }
    }
}
