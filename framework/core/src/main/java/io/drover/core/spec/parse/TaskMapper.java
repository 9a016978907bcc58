package io.drover.core.spec.parse;

import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.SafeName;
import io.drover.core.spec.Task;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.driver.api.Signals;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates a {@code task} block, with its {@code lifecycle} and {@code logs} blocks, for a group
 * ({@link GroupMapper}) or a task directly in the job ({@link JobMapper}). Pure; problems are recorded, not thrown.
 */
final class TaskMapper {
    private static final List<String> TASK_KEYS = List.of("driver", "config", "env", "leader", "lifecycle",
            "kill_timeout", "kill_signal", "shutdown_delay", "max_runtime", "logs", "restart", "meta", "resources",
            "user");
    private static final List<String> LIFECYCLE_KEYS = List.of("hook", "sidecar", "gc_kill");
    private static final List<String> LOGS_KEYS = List.of("max_files", "max_file_size");

    private TaskMapper() {}

    /** @return the task, null when it has a problem (recorded in {@code p}) */
    static Task task(Field field, MapReader group, RestartPolicy groupRestart, Duration groupMaxRuntime,
            Problems p, String groupName, List<io.drover.core.spec.Constraint> constraints,
            java.util.Set<String> volumes) {
        int before = p.size();
        String name = p.read(() -> BlockLabels.label(field, "task", "the task name", group.path()), null);
        if (name == null) {
            return null;
        }
        String path = group.path() + " > task \"" + SafeName.shown(name) + "\"";
        if (name.isBlank()) {
            p.add(new TreeProblem(field.line(), path, "the task name must not be empty"));
        } else {
            SafeName.taskProblem(name).ifPresent(problem ->
                    p.add(new TreeProblem(field.line(), path, "the task name " + problem)));
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), path, group.vocabulary(),
                KeyLists.concat(KeyLists.concat(TASK_KEYS, ScheduleMapper.TASK_KEYS), KeyLists.cluster(group.vocabulary(), ClusterBlocks.TASK_SINGLE)),
                KeyLists.concat(KeyLists.concat(List.of("artifact", "template", WorkloadMapper.IDENTITY), KeyLists.cluster(group.vocabulary(), ClusterBlocks.TASK_REPEATABLE)),
                        PlacementMapper.withBlocks()), p);
        Map<String, Object> cluster = ClusterBlocks.check(r, p, false);
        constraints.addAll(PlacementMapper.read(r, groupName, name, p, cluster));
        WorkloadMapper.task(r, p, cluster);
        String driver = null;
        if (!r.has("driver")) {
            p.add(r.problem("driver", "is required (e.g. driver = \"raw_exec\")"));
        } else {
            driver = p.read(() -> r.string("driver", null), null);
            if (driver != null && driver.isBlank()) {
                p.add(r.problem("driver", "must not be empty"));
            }
        }
        Map<String, Object> config = p.read(() -> r.anyMap("config"), null);
        Map<String, String> env = p.read(() -> r.stringMap("env"), null);
        boolean leader = p.read(() -> r.bool("leader", false), false);
        Lifecycle lifecycle = lifecycle(r.child("lifecycle", LIFECYCLE_KEYS, List.of(), p), p);
        Duration killTimeout = p.read(() -> r.duration("kill_timeout", Task.DEFAULT_KILL_TIMEOUT, false), null);
        String killSignal = p.read(() -> killSignal(r), null);
        Duration shutdownDelay = p.read(() -> r.duration("shutdown_delay", Duration.ZERO, false), null);
        Duration maxRuntime = p.read(() -> r.duration("max_runtime", groupMaxRuntime, true), null);
        LogConfig logs = logs(r.child("logs", LOGS_KEYS, List.of(), p), p);
        RestartPolicy restart = RestartMapper.restart(r.child("restart", RestartMapper.KEYS, List.of(), p), groupRestart, p);
        io.drover.core.spec.TaskRuntime runtime = ScheduleMapper.task(r, RuntimeMapper.task(r, name, volumes, p), p);
        if (p.size() != before) {
            return null;
        }
        return new Task(name, driver, config, env, leader, lifecycle, killTimeout, killSignal, shutdownDelay,
                maxRuntime, logs, restart, field.line(), runtime, new io.drover.core.spec.ClusterFields(cluster));
    }

    private static String killSignal(MapReader r) throws TreeProblem {
        String signal = r.string("kill_signal", Task.DEFAULT_KILL_SIGNAL);
        return Signals.canonical(signal).orElseThrow(() -> r.problem("kill_signal",
                "unknown signal \"" + signal + "\" (e.g. SIGINT, SIGTERM, SIGQUIT, SIGUSR1)"));
    }

    /** @return the lifecycle, null when absent or bad (the problems recorded in {@code p}) */
    private static Lifecycle lifecycle(MapReader r, Problems p) {
        if (r == null) {
            return null;
        }
        String hookName = null;
        LifecycleHook hook = null;
        if (!r.has("hook")) {
            p.add(r.problem("hook", "is required (prestart, poststart or poststop)"));
        } else {
            hookName = p.read(() -> r.string("hook", null), null);
            hook = hookName == null ? null : LifecycleHook.fromWire(hookName).orElse(null);
            if (hookName != null && hook == null) {
                p.add(r.problem("hook", "unknown hook \"" + hookName + "\" (allowed: prestart, poststart, poststop)"));
            }
        }
        boolean sidecar = p.read(() -> r.bool("sidecar", false), false);
        if (sidecar && hook == LifecycleHook.POSTSTOP) {
            p.add(r.problem("sidecar", "a poststop task cannot be a sidecar"));
        }
        Boolean gcKill = p.read(() -> r.bool("gc_kill"), null);
        if (gcKill != null && hook != null && hook != LifecycleHook.POSTSTOP) {
            // every other task is killed at destroy whatever the policy: the key would do nothing
            p.add(r.problem("gc_kill", "applies to poststop tasks only (this task's hook is " + hookName + ")"));
        }
        return hook == null ? null : new Lifecycle(hook, sidecar, gcKill);
    }

    private static LogConfig logs(MapReader r, Problems p) {
        if (r == null) {
            return LogConfig.DEFAULT;
        }
        long maxFiles = p.read(() -> r.integer("max_files", LogConfig.DEFAULT.maxFiles(), 1, Integer.MAX_VALUE),
                (long) LogConfig.DEFAULT.maxFiles());
        long maxSize = p.read(() -> r.integer("max_file_size", LogConfig.DEFAULT.maxFileSizeMb(), 1, Integer.MAX_VALUE),
                (long) LogConfig.DEFAULT.maxFileSizeMb());
        return new LogConfig((int) maxFiles, (int) maxSize);
    }
}
