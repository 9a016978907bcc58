package io.drover.cli.bench;

import io.drover.bench.SignalTimes;
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
import io.drover.core.time.Nanos;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Kill escalation precision (issue 3): N concurrent raw_exec tasks that ignore SIGTERM, kill_timeout 1 s, all
 * stopped at once. The deadline of a task is its Killing event + kill_timeout; the figures, each minus the
 * deadline:
 * <ul>
 *   <li><b>timer probe</b>: N bare timers on the agent's timer thread, due in the same millisecond, while the
 *       tasks run: how late the timer thread itself is on this machine;
 *   <li><b>SIGKILL requested</b>: the engine called the driver's {@code signal(SIGKILL)};
 *   <li><b>SIGKILL landed</b>: that call returned — for raw_exec, {@code kill(-pgid, SIGKILL)} has returned, so
 *       every process of the group has the signal pending (the lateness the aim is about);
 *   <li><b>exit reported</b>: the driver completed the exit stage: reaped, the whole tree verified dead (the
 *       /proc search for escaped descendants included), output flushed;
 *   <li><b>Terminated recorded</b>: the engine recorded it, on the allocation's executor.
 * </ul>
 * Workloads ({@code -Dworkload=}): {@code busy} (default, as first measured: {@code while :; do sleep 0.05; done},
 * 100 tasks fork+exec 2,000 times a second between them, which loads the machine itself) or {@code idle}
 * ({@code sleep 1000} under {@code trap '' TERM}: SIG_IGN is inherited, so the sleep ignores SIGTERM too).
 * Reproduce: {@code scripts/bench-escalation.sh [tasks] [busy|idle]} (docs/performance.md).
 */
public final class EscalationBenchmark {
    private EscalationBenchmark() {}

    public static void main(String[] args) throws Exception {
        int tasks = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        Path pluginDir = Path.of(args.length > 1 ? args[1] : "plugins/dist");
        String workload = System.getProperty("workload", "busy");
        String script = workload.equals("idle") ? "trap '' TERM; exec sleep 1000"
                : "trap '' TERM; while :; do sleep 0.05; done";
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
                        args    = ["-c", "%s"]
                      }
                    }
                  }
                }
                """.formatted(tasks, script);
        Job job = JobFileParser.parse("stubborn.hcl", hcl.getBytes(StandardCharsets.UTF_8));
        try (EngineRuntime runtime = EngineRuntime.real(2);
                DriverRegistry registry = DriverRegistry.load(pluginDir,
                        Map.of("raw_exec", Map.of("enabled", true)), runtime.timers())) {
            registry.problems().forEach(p -> System.err.println("warning: " + p));
            SignalTimes signals = new SignalTimes(registry);
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
            List<Double> probeMs = probeTimers(runtime, tasks);
            placed.forEach(a -> engine.stop(a.id()));
            CompletableFuture.allOf(placed.stream().map(a -> engine.terminal(a.id()))
                    .toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            List<Double> lateMs = new ArrayList<>();
            List<Double> requestLateMs = new ArrayList<>();
            List<Double> landedLateMs = new ArrayList<>();
            List<Double> exitLateMs = new ArrayList<>();
            List<long[]> byDeadline = new ArrayList<>();
            for (AllocationState a : placed) {
                List<TaskEvent> events = engine.allocation(a.id()).orElseThrow().taskStates().get("ignore-term")
                        .events();
                long due = time(events, TaskEventType.KILLING) + 1_000_000_000L;
                TaskEvent terminated = events.stream().filter(e -> e.type() == TaskEventType.TERMINATED)
                        .findFirst().orElseThrow();
                if (terminated.signal() != 9) {
                    throw new IllegalStateException("a task ended without SIGKILL: " + terminated.displayMessage());
                }
                lateMs.add((terminated.time() - due) / 1e6);
                requestLateMs.add((signals.sigkillAt(a.id()) - due) / 1e6);
                landedLateMs.add((signals.sigkillReturnedAt(a.id()) - due) / 1e6);
                exitLateMs.add((signals.exitedAt(a.id()) - due) / 1e6);
                byDeadline.add(new long[] {due, signals.sigkillReturnedAt(a.id())});
            }
            engine.close();
            System.out.printf("tasks=%d workload=%s (ms after the deadline)%n", tasks, workload);
            print("timer probe (bare timers, same ms)", probeMs);
            print("SIGKILL requested by the engine", requestLateMs);
            print("SIGKILL landed (kill(-pgid) returned)", landedLateMs);
            print("exit reported by the driver", exitLateMs);
            byDeadline.sort((x, y) -> Long.compare(x[0], y[0]));
            long first = byDeadline.get(0)[0];
            long last = byDeadline.get(byDeadline.size() - 1)[0];
            long landedLast = byDeadline.stream().mapToLong(x -> x[1]).max().orElse(0);
            System.out.printf("  deadlines spread over %.1f ms; SIGKILLs landed from %.1f to %.1f ms after the first"
                    + " deadline%n", (last - first) / 1e6,
                    (byDeadline.stream().mapToLong(x -> x[1]).min().orElse(0) - first) / 1e6,
                    (landedLast - first) / 1e6);
            print("Terminated recorded by the engine", lateMs);
        }
    }

    /** N bare timers due in the same millisecond on the agent's timer thread: their lateness. */
    private static List<Double> probeTimers(EngineRuntime runtime, int n) throws InterruptedException {
        List<Double> late = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch fired = new CountDownLatch(n);
        long due = Nanos.of(runtime.timers().now()) + 500_000_000L;
        for (int i = 0; i < n; i++) {
            long left = due - Nanos.of(runtime.timers().now());
            runtime.timers().schedule(Duration.ofNanos(left), () -> {
                late.add((Nanos.of(runtime.timers().now()) - due) / 1e6);
                fired.countDown();
            });
        }
        fired.await(10, TimeUnit.SECONDS);
        return new ArrayList<>(late);
    }

    private static void print(String what, List<Double> ms) {
        Collections.sort(ms);
        System.out.printf("  %-40s p50=%7.1f  p99=%7.1f  max=%7.1f%n", what, pct(ms, 50), pct(ms, 99),
                ms.get(ms.size() - 1));
    }

    private static long time(List<TaskEvent> events, TaskEventType type) {
        return events.stream().filter(e -> e.type() == type).findFirst().orElseThrow().time();
    }

    private static double pct(List<Double> sorted, int p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
