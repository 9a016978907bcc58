package io.drover.bench;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.time.Nanos;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 3 ({@code escalation}): N concurrent raw_exec tasks that ignore SIGTERM, kill_timeout 1 s, all stopped at
 * once. Issue 5 ({@code escalation_poststop}): the same tasks as poststop tasks (after a mock main task that ends
 * at once), stopped under {@code gc_kill_policy = "kill_poststop"} while they run. Each figure is a lateness after
 * the task's deadline (its Killing event + kill_timeout):
 * <ul>
 *   <li><b>timer probe</b>: N bare timers on the engine's timer thread due in the same millisecond, while the
 *       tasks run: how late the timer thread itself is on this machine;
 *   <li><b>SIGKILL asked</b>: the engine called the driver's {@code signal(SIGKILL)} (the aim);
 *   <li><b>SIGKILL landed</b>: that call returned — for raw_exec {@code kill(-pgid, SIGKILL)} has returned, so
 *       every process of the group has the signal pending;
 *   <li><b>exit reported</b>: the driver completed the exit stage (reaped, the tree verified dead, output flushed);
 *   <li><b>Terminated</b>: the engine recorded the event.
 * </ul>
 * Parameters: {@code tasks} (default 100, quick 20) and {@code idle}: false (default) runs busy tasks, shells
 * forking {@code sleep 0.05} in a loop, which load the machine themselves; true runs {@code sleep 1000} under
 * {@code trap '' TERM} (SIG_IGN is inherited). {@code scripts/bench-escalation.sh} runs this row alone.
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
                        args    = ["-c", "%s"]
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
    public List<Param> params() {
        return List.of(Param.count("tasks", "stubborn tasks stopped at once (default 100, quick 20)"),
                Param.flag("idle", "the tasks sleep instead of forking sleep 0.05 in a loop (default false)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int tasks = env.count(this, "tasks", env.size(20, 100));
        String script = env.flag(this, "idle", false) ? "trap '' TERM; echo ignoring; exec sleep 1000"
                : "trap '' TERM; echo ignoring; while :; do sleep 0.05; done";
        String tasksHcl = poststop ? MAIN + STUBBORN.formatted("lifecycle { hook = \"poststop\" }", script)
                : STUBBORN.formatted("", script);
        Job job = EngineHarness.job("stubborn", """
                job "stubborn" {
                  type = "batch"
                  group "g" {
                %s  }
                }
                """.formatted(tasksHcl), tasks);
        SignalTimes[] signals = new SignalTimes[1];
        List<Double> requestLate = new ArrayList<>();
        List<Double> landedLate = new ArrayList<>();
        List<Double> exitLate = new ArrayList<>();
        List<Double> terminatedLate = new ArrayList<>();
        List<Double> afterKill = new ArrayList<>(); // exit reported - SIGKILL landed: the tree search + reap
        List<Double> recording = new ArrayList<>(); // Terminated - exit reported: the engine's part
        List<Double> byShim = new ArrayList<>(); // the shim reaped the task (its status file's "ended") - SIGKILL landed
        List<Double> shimToReport = new ArrayList<>(); // exit reported - the shim reaped the task
        List<Double> probe;
        String nices;
        long firstDeadline = Long.MAX_VALUE;
        long lastDeadline = Long.MIN_VALUE;
        try (EngineHarness h = new EngineHarness(env, env.freshDir(name()), false, c -> {
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
            probe = probeTimers(h, tasks);
            nices = threadNices();
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
                requestLate.add((signals[0].sigkillAt(a.id(), TASK) - deadline) / 1e6);
                landedLate.add((signals[0].sigkillReturnedAt(a.id(), TASK) - deadline) / 1e6);
                exitLate.add((signals[0].exitedAt(a.id(), TASK) - deadline) / 1e6);
                afterKill.add((signals[0].exitedAt(a.id(), TASK) - signals[0].sigkillReturnedAt(a.id(), TASK)) / 1e6);
                recording.add((terminated.time() - signals[0].exitedAt(a.id(), TASK)) / 1e6);
                long reaped = shimReapedAt(env.workDir().resolve(name()).resolve("alloc").resolve(a.id()).resolve(TASK));
                if (reaped > 0) {
                    byShim.add((reaped - signals[0].sigkillReturnedAt(a.id(), TASK)) / 1e6);
                    shimToReport.add((signals[0].exitedAt(a.id(), TASK) - reaped) / 1e6);
                }
                firstDeadline = Math.min(firstDeadline, deadline);
                lastDeadline = Math.max(lastDeadline, deadline);
            }
        }
        Percentiles req = Percentiles.of(requestLate);
        Percentiles landed = Percentiles.of(landedLate);
        Percentiles exit = Percentiles.of(exitLate);
        Percentiles term = Percentiles.of(terminatedLate);
        String n = " (" + tasks + (poststop ? " poststop tasks, kill_poststop)" : " tasks)");
        String spread = String.format("deadlines spread over %.1f ms", (lastDeadline - firstDeadline) / 1e6);
        return List.of(
                Figure.info(name(), "timer probe: bare timers due in the same ms, lateness p99" + n,
                        Percentiles.of(probe).p(99), "ms", nices),
                Figure.info(name(), "SIGKILL asked by the engine, lateness p50" + n, req.p(50), "ms", spread),
                // issue 18: 20 ms for the escalation row (both cores saturated by the tasks); issue 5's 50 ms for poststop
                Figure.atMost(name(), "SIGKILL asked by the engine, lateness p99" + n, req.p(99), "ms", "",
                        poststop ? 50 : 20),
                Figure.info(name(), "SIGKILL landed (signal returned), lateness p99" + n, landed.p(99), "ms",
                        String.format("p50 %.1f ms", landed.p(50))),
                Figure.info(name(), "exit reported by the driver, lateness p99" + n, exit.p(99), "ms",
                        String.format("p50 %.1f ms", exit.p(50))),
                Figure.info(name(), "phase: SIGKILL landed -> exit reported (tree search, reap), p99" + n,
                        Percentiles.of(afterKill).p(99), "ms",
                        String.format("p50 %.1f ms", Percentiles.of(afterKill).p(50))),
                Figure.info(name(), "  of which SIGKILL landed -> task reaped by its shim (kernel), p99" + n,
                        Percentiles.of(byShim).p(99), "ms", String.format("p50 %.1f ms; %d status files read",
                                Percentiles.of(byShim).p(50), byShim.size())),
                Figure.info(name(), "  of which task reaped by its shim -> exit reported (shim exit, reaper), p99" + n,
                        Percentiles.of(shimToReport).p(99), "ms",
                        String.format("p50 %.1f ms", Percentiles.of(shimToReport).p(50))),
                Figure.info(name(), "phase: exit reported -> Terminated recorded (engine), p99" + n,
                        Percentiles.of(recording).p(99), "ms",
                        String.format("p50 %.1f ms", Percentiles.of(recording).p(50))),
                Figure.info(name(), "Terminated event lateness p50" + n, term.p(50), "ms", ""),
                Figure.atMost(name(), "Terminated event lateness p99" + n, term.p(99), "ms", "", 50));
    }

    /**
     * When the task's shim reaped it (unix nanos, wall clock): the {@code ended T} of the shim's status file in the
     * task dir ({@code .drover-exit.*}); 0 when there is none (no shim, or it died without writing one).
     */
    private static long shimReapedAt(Path taskDir) {
        try (var files = Files.newDirectoryStream(taskDir, ".drover-exit.*")) {
            for (Path f : files) {
                String[] first = Files.readString(f).split("\n", 2)[0].trim().split(" ");
                if (first.length == 4 && first[2].equals("ended")) {
                    return Long.parseLong(first[3]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not known
        }
        return 0;
    }

    /**
     * The nice values of the threads the kill path runs on (raised as root, docs/performance.md "Issue 18"), as
     * {@code /proc/self/task/TID/stat} shows them, by their kernel names (truncated to 15 characters).
     */
    private static String threadNices() {
        List<String> shown = new ArrayList<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        for (java.io.File t : tasks == null ? new java.io.File[0] : tasks) {
            try {
                String comm = Files.readString(t.toPath().resolve("comm")).trim();
                if (comm.equals("drover-timer") || comm.startsWith("drover-raw_exe") || comm.equals("drover-tree-kil")
                        || comm.equals("drover-cgroups")) {
                    io.drover.core.time.RaisedPriority.niceOf(Integer.parseInt(t.getName()))
                            .ifPresent(n -> shown.add(comm + " " + n));
                }
            } catch (IOException | RuntimeException e) {
                // the thread ended
            }
        }
        java.util.Collections.sort(shown);
        return "nice: " + String.join(", ", shown);
    }

    /** N bare timers due in the same millisecond on the engine's timer thread: their lateness, ms. */
    private static List<Double> probeTimers(EngineHarness h, int n) throws InterruptedException {
        List<Double> late = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch fired = new CountDownLatch(n);
        long due = Nanos.of(h.runtime.timers().now()) + 500_000_000L;
        for (int i = 0; i < n; i++) {
            long left = due - Nanos.of(h.runtime.timers().now());
            h.runtime.timers().schedule(Duration.ofNanos(left), () -> {
                late.add((Nanos.of(h.runtime.timers().now()) - due) / 1e6);
                fired.countDown();
            });
        }
        if (!fired.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the timer probe did not fire within 10 s");
        }
        return new ArrayList<>(late);
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
