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
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.core.time.Nanos;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * max_runtime expiry lateness (issue 5): N concurrent mock tasks (run_for 1h) with max_runtime 2 s
 * ({@code -Dlimit=} seconds) on the real
 * clock ({@code RealTimers}, 2 engine threads, as the CLI). Lateness of a task = the time of its
 * {@code Max Runtime Exceeded} event (recorded on its allocation's executor) - (its StartedAt + 2 s). With
 * {@code -Dstore=true} the engine persists every change to a JournalStore in a temp dir, as the agent does.
 * Reproduce: {@code scripts/bench-max-runtime.sh [tasks] [store]} (docs/performance.md).
 */
public final class MaxRuntimeBenchmark {
    private static final Duration LIMIT = Duration.ofSeconds(Long.getLong("limit", 2));

    private MaxRuntimeBenchmark() {}

    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path pluginDir = Path.of(args.length > 1 ? args[1] : "plugins/dist");
        boolean persist = Boolean.getBoolean("store");
        Path data = Files.createTempDirectory("drover-bench-max-runtime");
        String hcl = """
                job "limited" {
                  type = "batch"
                  group "g" {
                    count = %d
                    task "t" {
                      driver      = "mock"
                      max_runtime = "%s"
                      config {
                        run_for = "1h"
                      }
                    }
                  }
                }
                """.formatted(tasks, LIMIT.toSeconds() + "s");
        Job job = JobFileParser.parse("limited.hcl", hcl.getBytes(StandardCharsets.UTF_8));
        try (EngineRuntime runtime = EngineRuntime.real(2);
                DriverRegistry registry = DriverRegistry.load(pluginDir, Map.of(), runtime.timers());
                JournalStore store = persist ? JournalStore.open(data.resolve("state")) : null) {
            registry.problems().forEach(p -> System.err.println("warning: " + p));
            Engine engine = new Engine(new EngineConfig(data, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                    registry, runtime, store, () -> UUID.randomUUID().toString());
            List<AllocationState> placed = engine.submit(job);
            CompletableFuture.allOf(placed.stream().map(a -> engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            List<Double> lateMs = new ArrayList<>();
            long firstStart = Long.MAX_VALUE;
            long lastStart = 0;
            for (AllocationState a : placed) {
                TaskState t = engine.allocation(a.id()).orElseThrow().taskStates().get("t");
                TaskEvent exceeded = t.events().stream().filter(e -> e.type() == TaskEventType.MAX_RUNTIME_EXCEEDED)
                        .findFirst().orElseThrow(() -> new IllegalStateException("no Max Runtime Exceeded"));
                lateMs.add((exceeded.time() - Nanos.of(t.startedAt().plus(LIMIT))) / 1e6);
                firstStart = Math.min(firstStart, Nanos.of(t.startedAt()));
                lastStart = Math.max(lastStart, Nanos.of(t.startedAt()));
            }
            engine.close();
            Collections.sort(lateMs);
            System.out.printf("tasks=%d store=%s  Max Runtime Exceeded recorded after StartedAt + %ds: "
                    + "p50=%.1f ms  p99=%.1f ms  max=%.1f ms%n", tasks, persist, LIMIT.toSeconds(), pct(lateMs, 50),
                    pct(lateMs, 99), lateMs.get(lateMs.size() - 1));
            System.out.printf("  (the %d starts spread over %.0f ms)%n", tasks, (lastStart - firstStart) / 1e6);
        }
    }

    private static double pct(List<Double> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
