package io.drover.bench;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Issue 6: lifecycle throughput — 3-task mock allocations (prestart, main, poststop, each ending at once) run to
 * their end on the durable store, every change persisted before it is published. Figure: allocations/s.
 */
final class LifecycleBench implements Bench {
    @Override
    public String name() {
        return "lifecycle";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("allocations", "3-task allocations to run to their end (default 5000, quick 1000)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.count(this, "allocations", env.size(1_000, 5_000));
        measure(env, "warmup", Math.min(n, 500));
        double[] run = measure(env, "run", n);
        double seconds = run[0];
        double cpuPerAlloc = run[1] / n;
        double gcPerAlloc = run[2] / n;
        // wall time lies on a shared machine; the CPU the JVM spent per allocation does not (much): the ceiling
        // on this machine's cores is cores / CPU per allocation (docs/performance.md, "Issue 18")
        int cores = Runtime.getRuntime().availableProcessors();
        return List.of(Figure.info(name(), "3-task mock allocations to their end, durable (" + n + ")",
                        n / seconds, "allocs/s", String.format("ceiling at this CPU cost on %d cores: %,.0f allocs/s",
                                cores, cores / (cpuPerAlloc / 1e6))),
                Figure.info(name(), "CPU time of the JVM (all threads) per allocation", cpuPerAlloc, "us",
                        String.format("of which GC pauses %.0f us (wall)", gcPerAlloc)),
                Figure.info(name(), "state versions persisted per allocation", run[3] / n, "",
                        String.format("driver-handle writes %.2f", run[4] / n)));
    }

    private static long gcMillis() {
        return java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(java.lang.management.GarbageCollectorMXBean::getCollectionTime).sum();
    }

    /**
     * Wall seconds, process CPU microseconds (all threads), collector wall microseconds, versions persisted and
     * driver-handle writes of one run.
     */
    private static double[] measure(BenchEnv env, String dir, int n) throws Exception {
        Job job = EngineHarness.job("lifecycle", """
                job "lifecycle" {
                  type = "batch"
                  group "app" {
                    task "init" {
                      driver = "mock"
                      lifecycle { hook = "prestart" }
                      config { run_for = "0s" }
                    }
                    task "main" {
                      driver = "mock"
                      config { run_for = "0s" }
                    }
                    task "cleanup" {
                      driver = "mock"
                      lifecycle { hook = "poststop" }
                      config { run_for = "0s" }
                    }
                  }
                }
                """, n);
        try (EngineHarness h = new EngineHarness(env, env.freshDir("lifecycle-" + dir), true,
                UnaryOperator.identity())) {
            var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                    .getOperatingSystemMXBean();
            long cpu0 = os.getProcessCpuTime();
            long gc0 = gcMillis();
            long t0 = System.nanoTime();
            List<AllocationState> placed = h.engine.submit(job);
            h.awaitTerminal(placed, 600);
            double wall = (System.nanoTime() - t0) / 1e9;
            return new double[] {wall, (os.getProcessCpuTime() - cpu0) / 1e3, (gcMillis() - gc0) * 1e3,
                    h.counts.persists.sum(), h.counts.handles.sum()};
        }
    }
}
