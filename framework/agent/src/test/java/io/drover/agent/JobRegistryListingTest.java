package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.state.AllocationState;
import io.drover.core.store.JournalStore;
import io.drover.core.testing.GatedStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's allocation listing and its summary counts (GET /v1/job/:id/allocations, GET /v1/jobs' JobSummary) show
 * an allocation only once its placement is on disk: a count a client saw never shrinks after a {@code kill -9}.
 * Uses no driver: the allocation's task fails at once, which is enough to be placed and recorded.
 */
class JobRegistryListingTest {
    @TempDir
    Path dataDir;

    @Test
    void listingAndSummaryWaitForThePlacementToBeDurable() throws Exception {
        try (EngineRuntime runtime = EngineRuntime.real(2);
                JournalStore real = JournalStore.open(dataDir.resolve("state"))) {
            GatedStore gate = new GatedStore(real);
            Engine engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30),
                    GcKillPolicy.PRESERVE_STATES), DriverCatalog.EMPTY, runtime, gate, () -> "a1");
            JobRegistry registry = new JobRegistry(engine);
            gate.hold();
            JobRegistry.Registration reg = registry.register(batch("web", 1, task("web", "run_for", "1h")));
            JobRegistry.Entry entry = registry.job("web").orElseThrow();
            gate.awaitHeld(Duration.ofSeconds(20));

            assertThat(registry.allocations(entry)).extracting(AllocationState::id).containsExactly("a1");
            assertThat(registry.listedAllocations(entry)).isEmpty();
            assertThat(registry.summary(entry)).allSatisfy((status, count) -> assertThat(count).isZero());

            gate.release();
            registry.recorded(reg).get(20, TimeUnit.SECONDS);
            assertThat(registry.listedAllocations(entry)).extracting(AllocationState::id).containsExactly("a1");
            assertThat(registry.summary(entry).values().stream().mapToLong(Long::longValue).sum()).isEqualTo(1);
            engine.terminal("a1").get(20, TimeUnit.SECONDS);
            engine.close();
        }
    }
}
