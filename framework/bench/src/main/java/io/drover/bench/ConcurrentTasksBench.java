package io.drover.bench;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * Issue 6: 10,000 concurrent running mock tasks (one per allocation) on the durable store: the heap after a full
 * GC (aim <= 512 MB), the process RSS, the live threads (aim <= 200), then the time to stop them all.
 */
final class ConcurrentTasksBench implements Bench {
    private static final String TASK = "web";

    @Override
    public String name() {
        return "concurrent";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.size(2_000, 10_000);
        Job job = EngineHarness.job("many", """
                job "many" {
                  type = "service"
                  group "g" {
                    task "web" {
                      driver = "mock"
                      config { run_for = "1h" }
                    }
                  }
                }
                """, n);
        String of = " (" + n + " running tasks)";
        try (EngineHarness h = new EngineHarness(env, env.freshDir("concurrent"), true,
                UnaryOperator.identity())) {
            CountDownLatch running = new CountDownLatch(n);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            h.engine.addListener(s -> {
                if (s.taskStates().get(TASK).state() == TaskLifeState.RUNNING && seen.add(s.id())) {
                    running.countDown();
                }
            });
            long t0 = System.nanoTime();
            List<AllocationState> placed = h.engine.submit(job);
            boolean all = running.await(10, TimeUnit.MINUTES);
            double startS = (System.nanoTime() - t0) / 1e9;
            System.gc();
            System.gc();
            Runtime rt = Runtime.getRuntime();
            double heapMiB = (rt.totalMemory() - rt.freeMemory()) / 1048576.0;
            double rss = rssMiB();
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();
            long t1 = System.nanoTime();
            placed.forEach(a -> h.engine.stop(a.id()));
            h.awaitTerminal(placed, 600);
            double stopS = (System.nanoTime() - t1) / 1e9;
            if (!all) {
                throw new IllegalStateException("only " + (n - running.getCount()) + " of " + n + " tasks started");
            }
            return List.of(Figure.info(name(), "time until all running" + of, startS, "s", ""),
                    Figure.atMost(name(), "heap after full GC" + of, Math.round(heapMiB), "MiB", "", 512),
                    Figure.info(name(), "process RSS" + of, Math.round(rss), "MiB", ""),
                    Figure.atMost(name(), "live JVM threads" + of, threads, "", "", 200),
                    Figure.info(name(), "time to stop them all" + of, stopS, "s", ""));
        }
    }

    static double rssMiB() throws java.io.IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
            }
        }
        return Double.NaN;
    }
}
