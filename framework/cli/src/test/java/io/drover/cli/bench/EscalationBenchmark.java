package io.drover.cli.bench;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Kill escalation precision (issue 3): N concurrent raw_exec tasks that ignore SIGTERM, kill_timeout 1 s, all
 * stopped at once. Lateness of a task = its Terminated event - (its Killing event + kill_timeout): an upper
 * bound of how late SIGKILL landed (it also holds the tree kill's check that every process died and the reap).
 * Reproduce: {@code scripts/bench-escalation.sh [tasks]} (docs/performance.md).
 */
public final class EscalationBenchmark {
    private EscalationBenchmark() {}

    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        Path pluginDir = Path.of(args.length > 1 ? args[1] : "plugins/dist");
        Path data = Files.createTempDirectory("drover-bench-escalation");
        String hcl = """
                job "stubborn" {
                  type = "batch"
                  group "g" {
                    count = %d
                    task "ignore-term" {
                      driver       = "raw_exec"
                      kill_signal  = "SIGTERM"
                      kill_timeout = "1s"
                      config {
                        command = "sh"
                        args    = ["-c", "trap '' TERM; while :; do sleep 0.05; done"]
                      }
                    }
                  }
                }
                """.formatted(tasks);
        Job job = JobFileParser.parse("stubborn.hcl", hcl.getBytes(StandardCharsets.UTF_8));
        try (EngineRuntime runtime = EngineRuntime.real(2);
                DriverRegistry registry = DriverRegistry.load(pluginDir,
                        Map.of("raw_exec", Map.of("enabled", true)), runtime.timers())) {
            registry.problems().forEach(p -> System.err.println("warning: " + p));
            SignalTimes signals = new SignalTimes(registry, runtime.timers());
            Engine engine = new Engine(new EngineConfig(data, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                    signals, runtime);
            List<AllocationState> placed = engine.submit(job);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!placed.stream().allMatch(a -> engine.allocation(a.id()).orElseThrow().taskStates()
                    .get("ignore-term").state() == TaskLifeState.RUNNING)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("tasks did not all start");
                }
                Thread.sleep(20); // a benchmark driver, not a test: polling the engine is fine here
            }
            placed.forEach(a -> engine.stop(a.id()));
            CompletableFuture.allOf(placed.stream().map(a -> engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            List<Double> lateMs = new ArrayList<>();
            List<Double> requestLateMs = new ArrayList<>();
            for (AllocationState a : placed) {
                List<TaskEvent> events = engine.allocation(a.id()).orElseThrow().taskStates().get("ignore-term")
                        .events();
                long killing = time(events, TaskEventType.KILLING);
                TaskEvent terminated = events.stream().filter(e -> e.type() == TaskEventType.TERMINATED)
                        .findFirst().orElseThrow();
                if (terminated.signal() != 9) {
                    throw new IllegalStateException("a task ended without SIGKILL: " + terminated.displayMessage());
                }
                lateMs.add((terminated.time() - killing - 1_000_000_000L) / 1e6);
                requestLateMs.add((signals.sigkillAt(a.id()) - killing - 1_000_000_000L) / 1e6);
            }
            engine.close();
            Collections.sort(lateMs);
            Collections.sort(requestLateMs);
            System.out.printf("tasks=%d  SIGKILL sent by the engine after kill_timeout: p50=%.1f ms  p99=%.1f ms%n",
                    tasks, pct(requestLateMs, 50), pct(requestLateMs, 99));
            System.out.printf("tasks=%d  SIGKILL lateness after kill_timeout (Terminated - Killing - 1s): "
                    + "p50=%.1f ms  p99=%.1f ms  max=%.1f ms%n", tasks, pct(lateMs, 50), pct(lateMs, 99),
                    lateMs.get(lateMs.size() - 1));
        }
    }

    private static long time(List<TaskEvent> events, TaskEventType type) {
        return events.stream().filter(e -> e.type() == type).findFirst().orElseThrow().time();
    }

    private static double pct(List<Double> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
