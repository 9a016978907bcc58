package io.drover.bench;

import io.drover.core.config.ClientConfig;
import io.drover.core.config.GcKillPolicy;
import io.drover.core.gc.DiskUsage;
import io.drover.core.gc.GarbageCollector;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.store.JournalStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Issue 5: client GC of 10,000 (quick: 1,000) terminal 3-task mock allocations on the durable store,
 * {@code gc_parallel_destroys = 2}: the time from a manual GC pass until every destroyed state is durable and
 * published (aim <= 5 s for 10,000), the most destroys seen at once and (not in the quick form: it swings with
 * the disk's load) the time the GC thread then takes to delete the trashed directories; then the records that come back, with every event plus
 * {@code Garbage Collected}, from the reopened store (all of them). Parameters: {@code gc.allocations},
 * {@code gc.parallel} (gc_parallel_destroys), {@code gc.store=false} (no store: published, not durable), {@code gc.sweep}.
 */
final class GcBench implements Bench {
    @Override
    public String name() {
        return "gc";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("allocations", "terminal 3-task allocations to collect (default 10000, quick 1000)"),
                Param.count("parallel", "gc_parallel_destroys (default 2)"),
                Param.flag("store", "keep state in the durable journal store (default true)"),
                Param.flag("sweep", "then time the deletion of the trashed directories (default true, quick false)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.count(this, "allocations", env.size(1_000, 10_000));
        int parallel = env.count(this, "parallel", 2);
        boolean durable = env.flag(this, "store", true);
        boolean sweep = env.flag(this, "sweep", !env.quick());
        Job job = EngineHarness.job("collect", """
                job "collect" {
                  type = "batch"
                  group "g" {
                    task "a" {
                      driver = "mock"
                      config { run_for = "1ms" }
                    }
                    task "b" {
                      driver = "mock"
                      config { run_for = "1ms" }
                    }
                    task "c" {
                      driver = "mock"
                      config { run_for = "1ms" }
                    }
                  }
                }
                """, n);
        Path dataDir = env.freshDir("gc");
        double seconds;
        double sweepSeconds = Double.NaN;
        int maxParallel;
        try (EngineHarness h = new EngineHarness(env, dataDir, durable, UnaryOperator.identity())) {
            List<AllocationState> placed = h.engine.submit(job);
            h.awaitTerminal(placed, 600);
            CountDownLatch destroyed = new CountDownLatch(n);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            h.engine.addListener(s -> {
                if (s.destroyedAt() >= 0 && seen.add(s.id())) {
                    destroyed.countDown();
                }
            });
            ExecutorService gcThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-gc"));
            ClientConfig client = new ClientConfig(Duration.ofHours(1), Integer.MAX_VALUE, 100, 100, parallel,
                    GcKillPolicy.PRESERVE_STATES, Duration.ofSeconds(30), Duration.ofHours(24));
            GarbageCollector gc = new GarbageCollector(h.engine, client, dataDir, d -> DiskUsage.UNKNOWN,
                    h.runtime.timers(), gcThread, id -> { });
            try {
                long t0 = System.nanoTime();
                gc.collectNow();
                if (!destroyed.await(10, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("only " + (n - destroyed.getCount()) + " of " + n
                            + " destroyed states were published");
                }
                seconds = (System.nanoTime() - t0) / 1e9;
                if (sweep) {
                    long s0 = System.nanoTime();
                    gcThread.submit(() -> { }).get(10, TimeUnit.MINUTES); // after the queued sweeps of the trash
                    sweepSeconds = (System.nanoTime() - s0) / 1e9;
                }
                maxParallel = gc.maxParallelSeen();
            } finally {
                gc.close();
                gcThread.shutdownNow();
            }
        }
        String of = " (" + n + " terminal 3-task allocations" + (durable ? ")" : ", no store)");
        String what = "system gc until every destroyed state is " + (durable ? "durable" : "published") + of;
        List<Figure> figures = new ArrayList<>(List.of(n >= 10_000 && durable
                        ? Figure.atMost(name(), what, seconds, "s", "", 5)
                        : Figure.info(name(), what, seconds, "s", "aim for 10,000, durable: <= 5 s"),
                Figure.info(name(), "most destroys at once", maxParallel, "", "gc_parallel_destroys = " + parallel)));
        if (sweep) {
            figures.add(Figure.info(name(), "then deletion of the trashed directories (GC thread)", sweepSeconds, "s",
                    ""));
        }
        if (durable) {
            long kept;
            try (JournalStore reopened = JournalStore.open(dataDir.resolve("state"))) {
                kept = reopened.load().stream().filter(a -> a.destroyedAt() >= 0)
                        .filter(a -> a.taskStates().values().stream()
                                .allMatch(t -> t.events().size() == 5 && t.startedAt() != null))
                        .count();
            }
            figures.add(Figure.atLeast(name(), "records kept with every event + Garbage Collected, reopened store",
                    kept, "", "of " + n, n));
        }
        return figures;
    }
}
