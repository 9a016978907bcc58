package io.drover.testkit;

import io.drover.core.event.GoDuration;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.TaskKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Random valid jobs of mock tasks for the property tests: one group with 1-3 main tasks and 0-5 lifecycle tasks
 * (prestart, prestart sidecar, poststart, poststart sidecar, poststop), maybe a leader, each task with random
 * run_for, exit code, start error and delay, signal handling (ignored, failing), kill_signal, kill_timeout, shutdown_delay, max_runtime and restart policy;
 * batch or service; maybe stopped at a random time (always, for service jobs, whose tasks restart forever).
 * Shrinks towards short, successful, plain jobs. {@link Shape#toString()} prints the job as HCL.
 */
final class JobShapes {
    private JobShapes() {}

    /** One task before naming: its kind and behaviour. */
    record TaskShape(TaskKind kind, String runFor, int exitCode, boolean startError, String killAfter,
            boolean ignoreSignals, Duration killTimeout, Duration shutdownDelay, Duration maxRuntime,
            RestartPolicy restart, String startBlockFor, String killSignal, boolean signalError) {}

    /** A job and when to stop it (null: never). */
    record Shape(Job job, Duration stopAfter) {
        @Override
        public String toString() {
            return (stopAfter == null ? "" : "# stopped after " + GoDuration.format(stopAfter) + "\n") + hcl(job);
        }
    }

    private static final List<String> RUN_FOR = List.of("0s", "10ms", "50ms", "1s", "1h");
    private static final List<Duration> SHORT = List.of(Duration.ZERO, Duration.ofMillis(20), Duration.ofMillis(100),
            Duration.ofSeconds(1), Duration.ofSeconds(5));

    static Arbitrary<TaskShape> tasks(Arbitrary<TaskKind> kinds, boolean service) {
        Arbitrary<String> runFor = Arbitraries.of(RUN_FOR);
        Arbitrary<Integer> exitCode = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(4, 0), net.jqwik.api.Tuple.of(1, 1));
        Arbitrary<Boolean> startError = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(9, false), net.jqwik.api.Tuple.of(1, true));
        Arbitrary<String> killAfter = Arbitraries.of("0s", "30ms", "2s");
        Arbitrary<Boolean> ignoreSignals = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(4, false), net.jqwik.api.Tuple.of(1, true));
        Arbitrary<Duration> killTimeout = Arbitraries.of(SHORT);
        Arbitrary<Duration> shutdownDelay = Arbitraries.of(Duration.ZERO, Duration.ZERO, Duration.ofMillis(30));
        Arbitrary<String> startBlockFor = Arbitraries.of("0s", "0s", "20ms");
        Arbitrary<String> killSignal = Arbitraries.of("SIGINT", "SIGTERM");
        Arbitrary<Boolean> signalError = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(9, false), net.jqwik.api.Tuple.of(1, true));
        Arbitrary<Duration> maxRuntime = Arbitraries.of(Duration.ofMillis(40), Duration.ofSeconds(2)).injectNull(0.7);
        // Every job must end: the interval outlasts all runs (a task failing every hour with a 1m interval is
        // restarted forever, as in Nomad), and mode delay (which retries a failing task forever) only where a
        // stop ends it: service jobs, which are always stopped, and not for poststop tasks, which no stop ends.
        java.util.function.Function<TaskKind, Arbitrary<RestartPolicy>> restart = kind -> Combinators.combine(
                Arbitraries.integers().between(0, 2),
                Arbitraries.just(Duration.ofHours(24)),
                Arbitraries.of(Duration.ZERO, Duration.ofMillis(100), Duration.ofSeconds(15)),
                service && kind != TaskKind.POSTSTOP ? Arbitraries.of(RestartMode.FAIL, RestartMode.DELAY)
                        : Arbitraries.just(RestartMode.FAIL))
                .as(RestartPolicy::new);
        return Combinators.combine(kinds, runFor, exitCode, startError, killAfter, ignoreSignals, killTimeout,
                        shutdownDelay)
                .as((k, r, e, s, ka, i, kt, sd) -> new TaskShape(k, r, e, s, ka, i, kt, sd, null, null, "0s", "SIGINT", false))
                .flatMap(t -> Combinators.combine(maxRuntime, restart.apply(t.kind()), startBlockFor, killSignal,
                                signalError)
                        .as((mr, rp, sb, ks, se) -> new TaskShape(t.kind(), t.runFor(), t.exitCode(), t.startError(),
                                t.killAfter(), t.ignoreSignals(), t.killTimeout(), t.shutdownDelay(), mr, rp, sb, ks,
                                se)));
    }

    static Arbitrary<Shape> shapes() {
        return Arbitraries.of(JobType.BATCH, JobType.BATCH, JobType.SERVICE).flatMap(type -> {
            boolean service = type == JobType.SERVICE;
            Arbitrary<List<TaskShape>> mains = tasks(Arbitraries.just(TaskKind.MAIN), service).list().ofMinSize(1)
                    .ofMaxSize(3);
            Arbitrary<List<TaskShape>> hooks = tasks(Arbitraries.of(TaskKind.PRESTART, TaskKind.PRESTART_SIDECAR,
                    TaskKind.POSTSTART, TaskKind.POSTSTART_SIDECAR, TaskKind.POSTSTOP), service).list().ofMaxSize(5);
            Arbitrary<Integer> leader = Arbitraries.integers().between(-1, 7);
            Arbitrary<Duration> stop = Arbitraries.of(Duration.ZERO, Duration.ofMillis(5), Duration.ofMillis(75),
                    Duration.ofSeconds(2), Duration.ofMinutes(1));
            Arbitrary<Duration> stopAfter = service ? stop : stop.injectNull(0.6);
            return Combinators.combine(mains, hooks, leader, stopAfter)
                    .as((m, h, l, s) -> new Shape(job(type, m, h, l), s));
        });
    }

    private static Job job(JobType type, List<TaskShape> mains, List<TaskShape> hooks, int leader) {
        List<TaskShape> all = new ArrayList<>(mains);
        all.addAll(hooks);
        List<Task> tasks = new ArrayList<>();
        Map<TaskKind, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            TaskShape t = all.get(i);
            int n = counts.merge(t.kind(), 1, Integer::sum) - 1;
            boolean isLeader = i == leader && t.kind() != TaskKind.POSTSTOP;
            tasks.add(task(name(t.kind()) + n, t, isLeader));
        }
        TaskGroup group = new TaskGroup("g", 1, type.defaultRestart(), null, tasks, 0);
        return new Job("prop", "prop", type, List.of("dc1"), List.of(group), "prop.hcl");
    }

    private static String name(TaskKind kind) {
        return switch (kind) {
            case MAIN -> "main";
            case PRESTART -> "pre";
            case PRESTART_SIDECAR -> "presidecar";
            case POSTSTART -> "post";
            case POSTSTART_SIDECAR -> "postsidecar";
            case POSTSTOP -> "poststop";
        };
    }

    private static Task task(String name, TaskShape t, boolean leader) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("run_for", t.runFor());
        config.put("exit_code", (long) t.exitCode());
        if (t.startError()) {
            config.put("start_error", "simulated start failure");
        }
        config.put("kill_after", t.killAfter());
        if (!t.startBlockFor().equals("0s")) {
            config.put("start_block_for", t.startBlockFor());
        }
        if (t.ignoreSignals()) {
            config.put("ignore_signals", true);
        }
        if (t.signalError()) {
            config.put("signal_error", "simulated signal failure");
        }
        Lifecycle lifecycle = switch (t.kind()) {
            case MAIN -> null;
            case PRESTART -> new Lifecycle(LifecycleHook.PRESTART, false, null);
            case PRESTART_SIDECAR -> new Lifecycle(LifecycleHook.PRESTART, true, null);
            case POSTSTART -> new Lifecycle(LifecycleHook.POSTSTART, false, null);
            case POSTSTART_SIDECAR -> new Lifecycle(LifecycleHook.POSTSTART, true, null);
            case POSTSTOP -> new Lifecycle(LifecycleHook.POSTSTOP, false, null);
        };
        return new Task(name, "mock", config, Map.of(), leader, lifecycle, t.killTimeout(), t.killSignal(),
                t.shutdownDelay(), t.maxRuntime(), LogConfig.DEFAULT, t.restart(), 0);
    }

    /** The job as a Nomad HCL jobspec (what a shrunk counterexample is reported as). */
    static String hcl(Job job) {
        StringBuilder sb = new StringBuilder();
        sb.append("job \"").append(job.id()).append("\" {\n  type = \"").append(job.type().wireName()).append("\"\n");
        for (TaskGroup g : job.groups()) {
            sb.append("  group \"").append(g.name()).append("\" {\n");
            for (Task t : g.tasks()) {
                sb.append("    task \"").append(t.name()).append("\" {\n");
                sb.append("      driver = \"").append(t.driver()).append("\"\n");
                if (t.leader()) {
                    sb.append("      leader = true\n");
                }
                if (!t.killSignal().equals(Task.DEFAULT_KILL_SIGNAL)) {
                    sb.append("      kill_signal = \"").append(t.killSignal()).append("\"\n");
                }
                sb.append("      kill_timeout = \"").append(GoDuration.format(t.killTimeout())).append("\"\n");
                if (!t.shutdownDelay().isZero()) {
                    sb.append("      shutdown_delay = \"").append(GoDuration.format(t.shutdownDelay())).append("\"\n");
                }
                if (t.maxRuntime() != null) {
                    sb.append("      max_runtime = \"").append(GoDuration.format(t.maxRuntime())).append("\"\n");
                }
                if (t.lifecycle() != null) {
                    sb.append("      lifecycle {\n        hook = \"").append(t.lifecycle().hook().name().toLowerCase())
                            .append("\"\n        sidecar = ").append(t.lifecycle().sidecar()).append("\n      }\n");
                }
                RestartPolicy r = t.restart();
                sb.append("      restart {\n        attempts = ").append(r.attempts())
                        .append("\n        interval = \"").append(GoDuration.format(r.interval()))
                        .append("\"\n        delay    = \"").append(GoDuration.format(r.delay()))
                        .append("\"\n        mode     = \"").append(r.mode().name().toLowerCase()).append("\"\n      }\n");
                sb.append("      config {\n");
                t.config().forEach((k, v) -> sb.append("        ").append(k).append(" = ")
                        .append(v instanceof String ? "\"" + v + "\"" : String.valueOf(v)).append("\n"));
                sb.append("      }\n    }\n");
            }
            sb.append("  }\n");
        }
        return sb.append("}\n").toString();
    }
}
