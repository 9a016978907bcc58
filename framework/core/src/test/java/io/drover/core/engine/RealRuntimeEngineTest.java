package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine on real threads and the wall clock: many allocations, a fixed, small number of threads. */
class RealRuntimeEngineTest {
    @TempDir
    Path dataDir;

    @Test
    void thousandsOfTasksRunOnABoundedPool() throws Exception {
        // threads that earlier tests in this JVM left (e.g. a process supervisor's tree-killer) are not this engine's
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (EngineRuntime runtime = EngineRuntime.real(2)) {
            TaskDriver mock = new MockDriver();
            mock.init(new DriverContext(java.util.Map.of(), runtime.timers(), "test"));
            DriverCatalog catalog = new DriverCatalog() {
                @Override
                public Optional<TaskDriver> driver(String name) {
                    return Optional.of(mock).filter(d -> d.name().equals(name));
                }

                @Override
                public Set<String> names() {
                    return Set.of("mock");
                }
            };
            Engine engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30),
                    GcKillPolicy.PRESERVE_STATES), catalog, runtime);
            Job job = TestJobs.job(io.drover.core.spec.JobType.BATCH, 500,
                    task("init").prestart().runFor("20ms"),
                    task("web").runFor("200ms"),
                    task("cleanup").poststop().runFor("10ms"));

            List<AllocationState> placed = engine.submit(job);
            // every task is live at once: 500 main tasks wait on timers, not on threads
            long engineThreads = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("drover-") && !before.contains(t)).count();
            CompletableFuture.allOf(placed.stream().map(a -> engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            assertThat(placed).hasSize(500);
            engineThreads = Math.max(engineThreads, Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("drover-") && !before.contains(t)).count());
            assertThat(engineThreads).isLessThanOrEqualTo(3); // 2 workers + 1 timer
            assertThat(engine.allocations()).allSatisfy(a -> assertThat(a.clientStatus())
                    .isEqualTo(ClientStatus.COMPLETE));
            engine.close();
        }
    }
}
