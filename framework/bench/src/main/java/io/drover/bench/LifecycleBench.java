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
    public List<Figure> run(BenchEnv env) throws Exception {
        int n = env.size(1_000, 5_000);
        measure(env, "warmup", Math.min(n, 500));
        double seconds = measure(env, "run", n);
        return List.of(Figure.info(name(), "3-task mock allocations to their end, durable (" + n + ")",
                n / seconds, "allocs/s", ""));
    }

    private static double measure(BenchEnv env, String dir, int n) throws Exception {
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
        try (EngineHarness h = new EngineHarness(env, env.workDir().resolve("lifecycle-" + dir), true,
                UnaryOperator.identity())) {
            long t0 = System.nanoTime();
            List<AllocationState> placed = h.engine.submit(job);
            h.awaitTerminal(placed, 600);
            return (System.nanoTime() - t0) / 1e9;
        }
    }
}
