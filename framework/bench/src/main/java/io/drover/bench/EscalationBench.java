package io.drover.bench;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 3 ({@code escalation}): N concurrent raw_exec tasks that ignore SIGTERM, kill_timeout 1 s, all stopped at
 * once. Issue 5 ({@code escalation_poststop}): the same tasks as poststop tasks (after a mock main task that ends
 * at once), stopped under {@code gc_kill_policy = "kill_poststop"} while they run. Two
 * latenesses after each task's deadline (its Killing event + kill_timeout): when the engine asked the driver
 * for SIGKILL, and the task's Terminated event (an upper bound of when SIGKILL landed: it also holds the tree
 * kill's check that every process died and the reap). Aim: SIGKILL within 50 ms at p99.
 */
final class EscalationBench implements Bench {
    private static final String TASK = "ignore-term";
    private static final String STUBBORN = """
                    task "ignore-term" {
                      driver       = "raw_exec"
                      kill_signal  = "SIGTERM"
                      kill_timeout = "1s"
                      %s
                      config {
                        command = "sh"
                        args    = ["-c", "trap '' TERM; echo ignoring; while :; do sleep 0.05; done"]
                      }
                    }
            """;
    private static final String MAIN = """
                    task "main" {
                      driver = "mock"
                      config { run_for = "0s" }
                    }
            """;

    private final boolean poststop;

    /** @param poststop the stubborn tasks are poststop tasks, stopped under kill_poststop */
    EscalationBench(boolean poststop) {
        this.poststop = poststop;
    }

    @Override
    public String name() {
        return poststop ? "escalation_poststop" : "escalation";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int tasks = env.size(20, 100);
        String tasksHcl = poststop ? MAIN + STUBBORN.formatted("lifecycle { hook = \"poststop\" }")
                : STUBBORN.formatted("");
        Job job = EngineHarness.job("stubborn", """
                job "stubborn" {
                  type = "batch"
                  group "g" {
                    count = %d
                %s  }
                }
                """.formatted(tasks, tasksHcl));
        SignalTimes[] signals = new SignalTimes[1];
        List<Double> requestLate = new ArrayList<>();
        List<Double> terminatedLate = new ArrayList<>();
        try (EngineHarness h = new EngineHarness(env, env.workDir().resolve(name()), false, c -> {
            signals[0] = new SignalTimes(c);
            return signals[0];
        }, poststop ? GcKillPolicy.KILL_POSTSTOP : GcKillPolicy.PRESERVE_STATES)) {
            CountDownLatch running = new CountDownLatch(tasks);
            java.util.Set<String> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            h.engine.addListener(s -> {
                if (s.taskStates().get(TASK).state() == TaskLifeState.RUNNING && seen.add(s.id())) {
                    running.countDown();
                }
            });
            List<AllocationState> placed = h.engine.submit(job);
            long ignoring = running.await(60, TimeUnit.SECONDS)
                    ? awaitIgnoring(env.workDir().resolve(name()), placed) : 0;
            if (ignoring < tasks) {
                placed.forEach(a -> h.engine.stop(a.id()));
                h.awaitTerminal(placed, 120);
                throw new IllegalStateException("only " + (tasks - running.getCount()) + " tasks started, "
                        + ignoring + " ignore SIGTERM");
            }
            placed.forEach(a -> h.engine.stop(a.id()));
            h.awaitTerminal(placed, 120);
            for (AllocationState a : placed) {
                List<TaskEvent> events = h.engine.allocation(a.id()).orElseThrow().taskStates().get(TASK).events();
                long deadline = first(events, TaskEventType.KILLING).time() + 1_000_000_000L;
                TaskEvent terminated = first(events, TaskEventType.TERMINATED);
                if (terminated.signal() != 9) {
                    throw new IllegalStateException("a task ended without SIGKILL: " + terminated.displayMessage());
                }
                terminatedLate.add((terminated.time() - deadline) / 1e6);
                requestLate.add((signals[0].sigkillAt(a.id()) - deadline) / 1e6);
            }
        }
        Percentiles req = Percentiles.of(requestLate);
        Percentiles term = Percentiles.of(terminatedLate);
        String n = " (" + tasks + (poststop ? " poststop tasks, kill_poststop)" : " tasks)");
        return List.of(
                Figure.info(name(), "SIGKILL asked by the engine, lateness p50" + n, req.p(50), "ms", ""),
                Figure.atMost(name(), "SIGKILL asked by the engine, lateness p99" + n, req.p(99), "ms", "", 50),
                Figure.info(name(), "Terminated event lateness p50" + n, term.p(50), "ms", ""),
                Figure.atMost(name(), "Terminated event lateness p99" + n, term.p(99), "ms", "", 50));
    }

    /**
     * Waits (60 s at most) until every task has said it ignores SIGTERM: Running is reported when the process is
     * spawned, before its shell has run {@code trap}; on a loaded machine a stop right then killed it with SIGTERM.
     * Reads each task's stdout in Nomad's layout, {@code alloc/<id>/alloc/logs/<task>.stdout.0}; returns how many did.
     */
    private static long awaitIgnoring(Path dataDir, List<AllocationState> placed) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            long ready = placed.stream().filter(a -> said(dataDir.resolve("alloc").resolve(a.id())
                    .resolve("alloc/logs/" + TASK + ".stdout.0"))).count();
            if (ready == placed.size() || System.nanoTime() > deadline) {
                return ready;
            }
            LockSupport.parkNanos(10_000_000); // the tasks' output, written by the agent's log writer
        }
    }

    private static boolean said(Path stdout) {
        try {
            return Files.isRegularFile(stdout) && Files.readString(stdout).contains("ignoring");
        } catch (IOException e) {
            return false;
        }
    }

    private static TaskEvent first(List<TaskEvent> events, TaskEventType type) {
        return events.stream().filter(e -> e.type() == type).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + type + " event"));
    }
}
