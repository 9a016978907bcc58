package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.mock.MockDriver;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark of the engine on real threads, the wall clock and the durable store (not a test). Two figures of
 * issue 6: lifecycle throughput (3-task mock allocations — prestart, main, poststop — run to their end,
 * allocations/s, every change persisted before it is published) and 10,000 concurrent running mock tasks
 * (heap after a full GC, RSS, live threads, then the time to stop them all). Reproduce with
 * {@code scripts/bench-engine.sh [allocs] [concurrent] [workers]}; figures in docs/performance.md.
 */
public final class EngineBench {
    private EngineBench() {}

    public static void main(String[] args) throws Exception {
        int allocs = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
        int concurrent = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : Math.max(2,
                Runtime.getRuntime().availableProcessors());
        Path base = Files.createTempDirectory("drover-engine-bench");
        System.out.printf("engine bench in %s, java %s, %d cores, %d engine workers, load %.2f%n", base,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), workers,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        throughput(base.resolve("warmup"), Math.min(allocs, 1_000), workers, false);
        throughput(base.resolve("throughput"), allocs, workers, true);
        concurrentTasks(base.resolve("concurrent"), concurrent, workers);
    }

    /** Runs {@code n} 3-task allocations to their end; prints allocations/s. */
    static void throughput(Path dir, int n, int workers, boolean report) throws Exception {
        Job job = TestJobs.job(JobType.BATCH, n,
                task("init").prestart().runFor("0s"),
                task("main").runFor("0s"),
                task("cleanup").poststop().runFor("0s"));
        try (Harness h = new Harness(dir, workers)) {
            long t0 = System.nanoTime();
            List<AllocationState> placed = h.engine.submit(job);
            CompletableFuture.allOf(placed.stream().map(a -> h.engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
            double seconds = (System.nanoTime() - t0) / 1e9;
            if (report) {
                System.out.printf("lifecycle throughput: %d allocations x 3 mock tasks, durable store: %.2f s, "
                        + "%.0f allocations/s%n", n, seconds, n / seconds);
            }
        }
    }

    /** Holds {@code n} running mock tasks at once; prints heap, RSS and threads, then the time to stop all. */
    static void concurrentTasks(Path dir, int n, int workers) throws Exception {
        Job job = TestJobs.job(JobType.SERVICE, n, task("web").runFor("1h"));
        try (Harness h = new Harness(dir, workers)) {
            CountDownLatch running = new CountDownLatch(n);
            Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            h.engine.addListener(s -> {
                if (s.taskStates().get("web").state() == TaskLifeState.RUNNING && seen.add(s.id())) {
                    running.countDown();
                }
            });
            long t0 = System.nanoTime();
            List<AllocationState> placed = h.engine.submit(job);
            if (!running.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("only " + (n - running.getCount()) + " tasks started");
            }
            double startS = (System.nanoTime() - t0) / 1e9;
            System.gc();
            System.gc();
            Runtime rt = Runtime.getRuntime();
            long heapMiB = (rt.totalMemory() - rt.freeMemory()) >> 20;
            int threads = Thread.activeCount();
            int jvmThreads = ManagementFactory.getThreadMXBean().getThreadCount();
            System.out.printf("%d concurrent running mock tasks: all running after %.2f s; heap after GC %d MiB, "
                    + "RSS %d MiB, live threads %d (JVM total incl. GC/compiler: %d)%n", n, startS, heapMiB,
                    rssMiB(), threads, jvmThreads);
            long t1 = System.nanoTime();
            placed.forEach(a -> h.engine.stop(a.id()));
            CompletableFuture.allOf(placed.stream().map(a -> h.engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
            System.out.printf("stopping all %d: %.2f s%n", n, (System.nanoTime() - t1) / 1e9);
        }
    }

    static long rssMiB() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
            }
        }
        return -1;
    }

    /** An engine as the agent builds it: real pool and timers, the mock driver, a journal store. */
    private static final class Harness implements AutoCloseable {
        final EngineRuntime runtime;
        final JournalStore store;
        final Engine engine;

        Harness(Path dir, int workers) throws Exception {
            runtime = EngineRuntime.real(workers);
            TaskDriver mock = new MockDriver();
            mock.init(new DriverContext(Map.of(), runtime.timers(), "bench"));
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
            store = JournalStore.open(dir.resolve("state"));
            engine = new Engine(new EngineConfig(dir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                    catalog, runtime, store, () -> UUID.randomUUID().toString());
        }

        @Override
        public void close() throws Exception {
            engine.close();
            store.close();
            runtime.close();
        }
    }
}
