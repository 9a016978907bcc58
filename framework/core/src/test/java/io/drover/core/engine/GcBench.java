package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;

import io.drover.core.config.ClientConfig;
import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.gc.DiskUsage;
import io.drover.core.gc.GarbageCollector;
import io.drover.core.spec.JobType;
import io.drover.core.state.AllocationState;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark (not a test): client GC of N terminal mock allocations of 3 tasks each, with the durable journal
 * store, on the agent's thread layout ({@code max(2, cores)} engine workers, one GC thread). Times a manual GC
 * pass from the request until every destroyed state is durable and published, then reopens the store and checks
 * that every record is there with every event plus {@code Garbage Collected}.
 *
 * <p>Usage: {@code GcBench [dir] [allocations=10000] [gc_parallel_destroys=2]} (scripts/bench-gc.sh).
 */
public final class GcBench {
    private GcBench() {}

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("gc-bench");
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int parallel = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
        Path stateDir = dir.resolve("state");
        List<String> ids;
        long placeMs;
        long gcQueuedMs;
        long gcDurableMs;
        try (EngineRuntime runtime = EngineRuntime.real(workers);
                JournalStore store = JournalStore.open(stateDir)) {
            TaskDriver mock = new MockDriver();
            mock.init(new DriverContext(Map.of(), runtime.timers(), "bench"));
            DriverCatalog catalog = new DriverCatalog() {
                @Override
                public Optional<TaskDriver> driver(String name) {
                    return Optional.of(mock).filter(d -> d.name().equals(name));
                }

                @Override
                public Set<String> names() {
                    return Set.of(mock.name());
                }
            };
            Engine engine = new Engine(new EngineConfig(dir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                    catalog, runtime, store, () -> java.util.UUID.randomUUID().toString());
            CountDownLatch allDestroyed = new CountDownLatch(n);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            engine.addListener(s -> {
                if (s.destroyedAt() >= 0 && seen.add(s.id())) {
                    allDestroyed.countDown();
                }
            });

            long t0 = System.nanoTime();
            ids = engine.submit(TestJobs.job(JobType.BATCH, n, task("a").runFor("1ms"), task("b").runFor("1ms"),
                    task("c").runFor("1ms"))).stream().map(AllocationState::id).toList();
            CompletableFuture.allOf(ids.stream().map(engine::terminal).toArray(CompletableFuture[]::new))
                    .get(10, TimeUnit.MINUTES);
            placeMs = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("placed and ran %,d allocations (3 mock tasks each) in %,d ms%n", n, placeMs);

            ExecutorService gcThread = Executors.newSingleThreadExecutor();
            ClientConfig client = new ClientConfig(Duration.ofHours(1), Integer.MAX_VALUE, 100, 100, parallel,
                    GcKillPolicy.PRESERVE_STATES, Duration.ofSeconds(30), Duration.ofHours(24));
            GarbageCollector gc = new GarbageCollector(engine, client, dir, d -> DiskUsage.UNKNOWN,
                    runtime.timers(), gcThread, id -> {});
            long g0 = System.nanoTime();
            gc.collectNow();
            while (gc.destroyedCount() < n) {
                Thread.sleep(1);
            }
            gcQueuedMs = (System.nanoTime() - g0) / 1_000_000;
            if (!allDestroyed.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("not every destroyed state was published");
            }
            gcDurableMs = (System.nanoTime() - g0) / 1_000_000;
            long sweep0 = System.nanoTime();
            gcThread.submit(() -> { }).get(30, TimeUnit.MINUTES); // the queued trash sweeps, in order
            long sweepMs = (System.nanoTime() - sweep0) / 1_000_000;
            gc.close();
            gcThread.shutdownNow();
            System.out.printf("system gc of %,d allocations, gc_parallel_destroys = %d, %d engine workers:%n", n,
                    parallel, workers);
            System.out.printf("  every destroy done (dirs removed, events queued): %,d ms%n", gcQueuedMs);
            System.out.printf("  every destroyed state durable and published:      %,d ms (%,.0f allocations/s)%n",
                    gcDurableMs, n * 1000.0 / Math.max(1, gcDurableMs));
            System.out.printf("  max destroys at once: %d; alloc dirs left: %d%n", gc.maxParallelSeen(),
                    countDirs(dir.resolve("alloc")));
            System.out.printf("  background deletion of the trashed trees (drover-gc thread) finished %,d ms later; "
                    + "trash left: %d%n", sweepMs, countDirs(dir.resolve("gc-trash")));
        }
        try (JournalStore reopened = JournalStore.open(stateDir)) {
            List<AllocationState> loaded = reopened.load();
            long kept = loaded.stream().filter(a -> a.destroyedAt() >= 0)
                    .filter(a -> a.taskStates().values().stream().allMatch(t -> t.events().size() == 5
                            && t.startedAt() != null))
                    .count();
            System.out.printf("records kept after reopening the store: %,d of %,d (each task: 4 events + "
                    + "Garbage Collected, StartedAt set)%n", kept, ids.size());
            if (kept != ids.size()) {
                throw new IllegalStateException("records lost");
            }
        }
    }

    private static long countDirs(Path allocRoot) throws java.io.IOException {
        if (!Files.isDirectory(allocRoot)) {
            return 0;
        }
        try (var s = Files.list(allocRoot)) {
            return s.count();
        }
    }
}
