package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.SafeName;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.spec.parse.tree.Vocabulary;
import io.drover.driver.api.Signals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds and validates a {@link Job} from a job file's neutral tree in the jobspec's shape (HCL as is, JSON
 * after {@link JsonJobShape}). The one place where the job schema, Nomad's defaults and the validation rules
 * live. Pure; the first problem found is thrown.
 */
final class JobMapper {
    private static final List<String> JOB_KEYS =
            List.of("name", "type", "datacenters", "region", "namespace", "priority", "meta", "all_at_once");
    /**
     * Most allocations one job may place (its groups' counts summed). Nomad has no such limit, but its scheduler
     * spreads them over a cluster; one Drover agent would place them all in memory at once, and a
     * {@code count = 2147483647} would exhaust the heap and kill the agent (bad input must never do that). The
     * engine is built and measured for 10,000 live tasks (docs/performance.md).
     */
    public static final int MAX_ALLOCATIONS = 10_000;
    private static final List<String> GROUP_KEYS = List.of("count", "restart", "max_runtime", "meta");
    private static final List<String> TASK_KEYS = List.of("driver", "config", "env", "leader", "lifecycle",
            "kill_timeout", "kill_signal", "shutdown_delay", "max_runtime", "logs", "restart", "meta", "resources");
    private static final List<String> RESTART_KEYS = List.of("attempts", "interval", "delay", "mode");
    private static final List<String> LIFECYCLE_KEYS = List.of("hook", "sidecar", "gc_kill");
    private static final List<String> LOGS_KEYS = List.of("max_files", "max_file_size");
    private static final List<String> RESOURCES_KEYS = List.of("cpu", "cores", "memory", "memory_max");

    private JobMapper() {}

    static Job map(Node.Mapping file, Vocabulary vocab, String source) throws TreeProblem {
        MapReader root = MapReader.open(file, "", vocab, List.of(), List.of("job"));
        List<Field> jobs = root.all("job");
        if (jobs.isEmpty()) {
            throw new TreeProblem(0, "", "no job block (expected job \"<id>\" { ... })");
        }
        if (jobs.size() > 1) {
            throw new TreeProblem(jobs.get(1).line(), jobs.get(1).name(),
                    "more than one job in the file (first at line " + jobs.get(0).line() + "); write one job per file");
        }
        return job(jobs.get(0), vocab, source);
    }

    private static Job job(Field field, Vocabulary vocab, String source) throws TreeProblem {
        String id = label(field, "job", "the job id", "");
        if (id.isBlank()) {
            throw new TreeProblem(field.line(), "job", "the job id must not be empty");
        }
        safeName(field, "job \"" + SafeName.shown(id) + "\"", "the job id", id);
        if (id.chars().anyMatch(Character::isWhitespace)) {
            throw new TreeProblem(field.line(), "job \"" + id + "\"", "the job id must not contain spaces");
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), "job \"" + id + "\"", vocab, JOB_KEYS,
                List.of("group"));
        String name = r.string("name", id);
        java.util.Optional<String> nameProblem = SafeName.textProblem(name);
        if (nameProblem.isPresent()) {
            throw r.problem("name", "the job name " + nameProblem.get());
        }
        JobType type = jobType(r);
        List<String> datacenters = r.strings("datacenters");
        r.string("region", null);
        r.string("namespace", null);
        r.integer("priority", 50, 1, 100);
        r.stringMap("meta");
        r.bool("all_at_once");
        List<Field> groupFields = r.all("group");
        if (groupFields.isEmpty()) {
            throw new TreeProblem(r.line(), r.path(), "the job has no task group");
        }
        List<TaskGroup> groups = new ArrayList<>();
        Map<String, Integer> groupLines = new HashMap<>();
        long placed = 0;
        for (Field g : groupFields) {
            TaskGroup group = group(g, r, type);
            Integer first = groupLines.putIfAbsent(group.name(), g.line());
            if (first != null) {
                throw new TreeProblem(g.line(), r.path() + " > group \"" + group.name() + "\"",
                        "duplicate group name (first at line " + first + ")");
            }
            groups.add(group);
            placed += group.count();
            if (placed > MAX_ALLOCATIONS) {
                throw new TreeProblem(g.line(), r.path(), "the job places " + placed + " allocations so far; at most "
                        + MAX_ALLOCATIONS + " per job (one machine runs them all)");
            }
        }
        return new Job(id, name, type, datacenters == null ? List.of() : datacenters, groups, source);
    }

    private static JobType jobType(MapReader r) throws TreeProblem {
        String type = r.string("type", JobType.SERVICE.wireName());
        if (type.equals("system") || type.equals("sysbatch")) {
            throw r.problem("type", "type \"" + type + "\" is not supported by Drover (use batch or service)");
        }
        return JobType.fromWire(type)
                .orElseThrow(() -> r.problem("type", "must be batch or service, found \"" + type + "\""));
    }

    /** Refuses a job id, group or task name that is not one safe path component ({@link SafeName}). */
    private static void safeName(Field field, String path, String what, String name) throws TreeProblem {
        java.util.Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            throw new TreeProblem(field.line(), path, what + " " + problem.get());
        }
    }

    /** The single, non-empty label of a block, else a problem. */
    private static String label(Field field, String kind, String what, String parentPath) throws TreeProblem {
        String key = MapReader.join(parentPath, kind);
        if (!(field.value() instanceof Node.Mapping m)) {
            throw new TreeProblem(field.line(), key, "must be a block: " + kind + " \"<name>\" { ... }");
        }
        if (m.labels().size() != 1) {
            throw new TreeProblem(field.line(), key, kind + " takes exactly one label, " + what + ": " + kind
                    + " \"<name>\" { ... }");
        }
        return m.labels().get(0);
    }

    private static TaskGroup group(Field field, MapReader job, JobType type) throws TreeProblem {
        String name = label(field, "group", "the group name", job.path());
        String path = job.path() + " > group \"" + SafeName.shown(name) + "\"";
        if (name.isBlank()) {
            throw new TreeProblem(field.line(), path, "the group name must not be empty");
        }
        safeName(field, path, "the group name", name);
        MapReader r = MapReader.open((Node.Mapping) field.value(), path, job.vocabulary(), GROUP_KEYS, List.of("task"));
        int count = (int) r.integer("count", 1, 0, MAX_ALLOCATIONS);
        RestartPolicy restart = restart(r.child("restart", RESTART_KEYS, List.of()), type.defaultRestart());
        Duration maxRuntime = r.duration("max_runtime", null, true);
        r.stringMap("meta");
        List<Field> taskFields = r.all("task");
        if (taskFields.isEmpty()) {
            throw new TreeProblem(r.line(), path, "the group has no task");
        }
        List<Task> tasks = new ArrayList<>();
        Map<String, Integer> taskLines = new HashMap<>();
        String leader = null;
        for (Field t : taskFields) {
            Task task = task(t, r, restart, maxRuntime);
            String taskPath = path + " > task \"" + task.name() + "\"";
            Integer first = taskLines.putIfAbsent(task.name(), t.line());
            if (first != null) {
                throw new TreeProblem(t.line(), taskPath, "duplicate task name (first at line " + first + ")");
            }
            if (task.leader()) {
                if (leader != null) {
                    throw new TreeProblem(leaderLine(t), taskPath + " > leader",
                            "more than one leader in the group (task \"" + leader + "\" is one already)");
                }
                leader = task.name();
            }
            tasks.add(task);
        }
        if (tasks.stream().noneMatch(t -> t.lifecycle() == null)) {
            throw new TreeProblem(field.line(), path, "the group has no main task (a task without a lifecycle block)");
        }
        return new TaskGroup(name, count, restart, maxRuntime, tasks, field.line());
    }

    private static int leaderLine(Field task) {
        return ((Node.Mapping) task.value()).fields().stream().filter(f -> "leader".equals(f.key()))
                .mapToInt(Field::line).findFirst().orElse(task.line());
    }

    private static Task task(Field field, MapReader group, RestartPolicy groupRestart, Duration groupMaxRuntime)
            throws TreeProblem {
        String name = label(field, "task", "the task name", group.path());
        String path = group.path() + " > task \"" + SafeName.shown(name) + "\"";
        if (name.isBlank()) {
            throw new TreeProblem(field.line(), path, "the task name must not be empty");
        }
        java.util.Optional<String> taskProblem = SafeName.taskProblem(name);
        if (taskProblem.isPresent()) {
            throw new TreeProblem(field.line(), path, "the task name " + taskProblem.get());
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), path, group.vocabulary(), TASK_KEYS, List.of());
        String driver = r.string("driver", null);
        if (driver == null) {
            throw r.problem("driver", "is required (e.g. driver = \"raw_exec\")");
        }
        if (driver.isBlank()) {
            throw r.problem("driver", "must not be empty");
        }
        Map<String, Object> config = r.anyMap("config");
        Map<String, String> env = r.stringMap("env");
        boolean leader = r.bool("leader", false);
        Lifecycle lifecycle = lifecycle(r.child("lifecycle", LIFECYCLE_KEYS, List.of()));
        Duration killTimeout = r.duration("kill_timeout", Task.DEFAULT_KILL_TIMEOUT, false);
        String killSignal = killSignal(r);
        Duration shutdownDelay = r.duration("shutdown_delay", Duration.ZERO, false);
        Duration maxRuntime = r.duration("max_runtime", groupMaxRuntime, true);
        LogConfig logs = logs(r.child("logs", LOGS_KEYS, List.of()));
        RestartPolicy restart = restart(r.child("restart", RESTART_KEYS, List.of()), groupRestart);
        r.stringMap("meta");
        MapReader resources = r.child("resources", RESOURCES_KEYS, List.of());
        if (resources != null) {
            for (String key : RESOURCES_KEYS) {
                resources.integer(key, 0, 0, Integer.MAX_VALUE);
            }
        }
        return new Task(name, driver, config, env, leader, lifecycle, killTimeout, killSignal, shutdownDelay,
                maxRuntime, logs, restart, field.line());
    }

    private static String killSignal(MapReader r) throws TreeProblem {
        String signal = r.string("kill_signal", Task.DEFAULT_KILL_SIGNAL);
        return Signals.canonical(signal).orElseThrow(() -> r.problem("kill_signal",
                "unknown signal \"" + signal + "\" (e.g. SIGINT, SIGTERM, SIGQUIT, SIGUSR1)"));
    }

    private static Lifecycle lifecycle(MapReader r) throws TreeProblem {
        if (r == null) {
            return null;
        }
        String hookName = r.string("hook", null);
        if (hookName == null) {
            throw r.problem("hook", "is required (prestart, poststart or poststop)");
        }
        LifecycleHook hook = LifecycleHook.fromWire(hookName).orElseThrow(() -> r.problem("hook",
                "unknown hook \"" + hookName + "\" (allowed: prestart, poststart, poststop)"));
        boolean sidecar = r.bool("sidecar", false);
        if (sidecar && hook == LifecycleHook.POSTSTOP) {
            throw r.problem("sidecar", "a poststop task cannot be a sidecar");
        }
        Boolean gcKill = r.bool("gc_kill");
        if (gcKill != null && hook != LifecycleHook.POSTSTOP) {
            // every other task is killed at destroy whatever the policy: the key would do nothing
            throw r.problem("gc_kill", "applies to poststop tasks only (this task's hook is " + hookName + ")");
        }
        return new Lifecycle(hook, sidecar, gcKill);
    }

    private static LogConfig logs(MapReader r) throws TreeProblem {
        if (r == null) {
            return LogConfig.DEFAULT;
        }
        return new LogConfig((int) r.integer("max_files", LogConfig.DEFAULT.maxFiles(), 1, Integer.MAX_VALUE),
                (int) r.integer("max_file_size", LogConfig.DEFAULT.maxFileSizeMb(), 1, Integer.MAX_VALUE));
    }

    /** A {@code restart} block over {@code base}: keys it leaves out keep the base's values (Nomad's merge). */
    static RestartPolicy restart(MapReader r, RestartPolicy base) throws TreeProblem {
        if (r == null) {
            return base;
        }
        int attempts = (int) r.integer("attempts", base.attempts(), 0, Integer.MAX_VALUE);
        Duration interval = r.duration("interval", base.interval(), false);
        Duration delay = r.duration("delay", base.delay(), false);
        String modeName = r.string("mode", base.mode().wireName());
        RestartMode mode = RestartMode.fromWire(modeName)
                .orElseThrow(() -> r.problem("mode", "must be fail or delay, found \"" + modeName + "\""));
        return new RestartPolicy(attempts, interval, delay, mode);
    }
}
