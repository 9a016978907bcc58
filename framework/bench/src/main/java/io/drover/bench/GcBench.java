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
 * published (aim <= 5 s for 10,000), then the records that come back, with every event plus
 * {@code Garbage Collected}, from the reopened store (all of them).
 */
final class GcBench implements Bench {
    @Override
    public String name() {
        return "gc";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.size(1_000, 10_000);
        Job job = EngineHarness.job("collect", """
                job "collect" {
                  type = "batch"
                  group "g" {
                    count = %d
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
                """.formatted(n));
        Path dataDir = env.workDir().resolve("gc");
        double seconds;
        try (EngineHarness h = new EngineHarness(env, dataDir, true, UnaryOperator.identity())) {
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
            ClientConfig client = new ClientConfig(Duration.ofHours(1), Integer.MAX_VALUE, 100, 100, 2,
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
            } finally {
                gc.close();
                gcThread.shutdownNow();
            }
        }
        long kept;
        try (JournalStore reopened = JournalStore.open(dataDir.resolve("state"))) {
            kept = reopened.load().stream().filter(a -> a.destroyedAt() >= 0)
                    .filter(a -> a.taskStates().values().stream()
                            .allMatch(t -> t.events().size() == 5 && t.startedAt() != null))
                    .count();
        }
        String of = " (" + n + " terminal 3-task allocations)";
        return List.of(n >= 10_000
                        ? Figure.atMost(name(), "system gc until every destroyed state is durable" + of, seconds, "s",
                                "", 5)
                        : Figure.info(name(), "system gc until every destroyed state is durable" + of, seconds, "s",
                                "aim for 10,000: <= 5 s"),
                Figure.atLeast(name(), "records kept with every event + Garbage Collected, reopened store", kept,
                        "", "of " + n, n));
    }
}
