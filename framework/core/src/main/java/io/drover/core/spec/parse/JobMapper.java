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
import io.drover.core.spec.parse.tree.Problems;
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
 * live. Pure. Every problem found is recorded in a {@link Problems}, not thrown: a bad key falls back to its
 * default so that the block's other keys are still read, and a bad group or task does not stop the others. A
 * record is built only from a block without problems (the job's result is null when there is any).
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
    private static final List<String> GROUP_KEYS = List.of("count", "restart", "max_runtime", "meta", "network",
            "max_run_duration");
    private static final List<String> TASK_KEYS = List.of("driver", "config", "env", "leader", "lifecycle",
            "kill_timeout", "kill_signal", "shutdown_delay", "max_runtime", "logs", "restart", "meta", "resources",
            "user");
    private static final List<String> RESTART_KEYS = List.of("attempts", "interval", "delay", "mode");
    private static final List<String> LIFECYCLE_KEYS = List.of("hook", "sidecar", "gc_kill");
    private static final List<String> LOGS_KEYS = List.of("max_files", "max_file_size");

    private JobMapper() {}

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return List.copyOf(out);
    }

    /** The cluster blocks, in both syntaxes (JsonJobShape spells them as Nomad's API does). */
    private static List<String> cluster(Vocabulary vocab, List<String> keys) {
        return keys;
    }

    /** A job's blocks: Nomad's API JSON (durations in ns) has no task directly in a job; its jobspec2 has. */
    private static List<String> jobBlocks(Vocabulary vocab) {
        return vocab.nanosecondDurations() ? PlacementMapper.withBlocks("group")
                : PlacementMapper.withBlocks("group", "task");
    }

    /** @return the job, or null when {@code problems} got any problem (all of them recorded, in file order) */
    static Job map(Node.Mapping file, Vocabulary vocab, String source, Problems problems) {
        MapReader root = MapReader.open(file, "", vocab, List.of(), List.of("job"), problems);
        List<Field> jobs = root.all("job");
        if (jobs.isEmpty()) {
            if (problems.isEmpty()) {
                problems.add(new TreeProblem(0, "", "no job block (expected job \"<id>\" { ... })"));
            }
            return null;
        }
        if (jobs.size() > 1) {
            problems.add(new TreeProblem(jobs.get(1).line(), jobs.get(1).name(),
                    "more than one job in the file (first at line " + jobs.get(0).line() + "); write one job per file"));
        }
        Job job = job(jobs.get(0), vocab, source, problems);
        return problems.isEmpty() ? job : null;
    }

    private static Job job(Field field, Vocabulary vocab, String source, Problems p) {
        int before = p.size();
        String id = p.read(() -> label(field, "job", "the job id", ""), null);
        if (id == null) {
            return null;
        }
        if (id.isBlank()) {
            p.add(new TreeProblem(field.line(), "job", "the job id must not be empty"));
        } else if (SafeName.problem(id).isPresent()) {
            p.read(() -> safeName(field, "job \"" + SafeName.shown(id) + "\"", "the job id", id), null);
        } else if (id.chars().anyMatch(Character::isWhitespace)) {
            p.add(new TreeProblem(field.line(), "job \"" + id + "\"", "the job id must not contain spaces"));
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), "job \"" + id + "\"", vocab,
                concat(concat(JOB_KEYS, ScheduleMapper.JOB_KEYS), cluster(vocab, ClusterBlocks.JOB_SINGLE)),
                jobBlocks(vocab), p);
        Map<String, Object> cluster = ClusterBlocks.check(r, p, false);
        List<io.drover.core.spec.Constraint> constraints = new ArrayList<>(PlacementMapper.read(r, null, null, p,
                cluster));
        String name = p.read(() -> r.string("name", id), id);
        java.util.Optional<String> nameProblem = SafeName.textProblem(name);
        boolean idReported = p.size() != before;
        if (nameProblem.isPresent() && (r.has("name") || !idReported)) { // a defaulted name repeats the id's problem
            p.add(r.problem("name", "the job name " + nameProblem.get()));
        }
        JobType type = p.read(() -> jobType(r), JobType.SERVICE);
        List<String> datacenters = p.read(() -> r.strings("datacenters"), null);
        String region = p.read(() -> r.string("region", null), null);
        String namespace = p.read(() -> r.string("namespace", null), null);
        int priority = (int) (long) p.read(() -> r.integer("priority", Job.DEFAULT_PRIORITY, 1, 100),
                (long) Job.DEFAULT_PRIORITY);
        Map<String, String> meta = RuntimeMapper.meta(r, p);
        io.drover.core.spec.JobLaunch launch = ScheduleMapper.job(r, type, p);
        Boolean allAtOnce = p.read(() -> r.bool("all_at_once"), null);
        if (allAtOnce != null) {
            cluster.put("AllAtOnce", allAtOnce);
        }
        List<Field> groupFields = r.all("group");
        // Nomad's jobspec2: a task directly in the job is a group of its own, named after it, placed first
        List<Field> loneTasks = r.all("task");
        if (groupFields.isEmpty() && loneTasks.isEmpty()) {
            p.add(new TreeProblem(r.line(), r.path(), "the job has no task group"));
        }
        List<Field> all = new ArrayList<>(loneTasks);
        all.addAll(groupFields);
        List<TaskGroup> groups = new ArrayList<>();
        Map<String, Integer> groupLines = new HashMap<>();
        long placed = 0;
        boolean tooMany = false;
        for (Field g : all) {
            TaskGroup group = "task".equals(g.key()) ? loneTaskGroup(g, r, type, p, constraints)
                    : group(g, r, type, p, constraints);
            String groupName = group != null ? group.name() : labelOf(g);
            Integer first = groupName == null ? null : groupLines.putIfAbsent(groupName, g.line());
            if (first != null) {
                p.add(new TreeProblem(g.line(), r.path() + " > group \"" + groupName + "\"",
                        "duplicate group name (first at line " + first + ")"));
            }
            if (group == null) {
                continue;
            }
            groups.add(group);
            placed += group.count();
            if (placed > MAX_ALLOCATIONS && !tooMany) {
                tooMany = true;
                p.add(new TreeProblem(g.line(), r.path(), "the job places " + placed + " allocations so far; at most "
                        + MAX_ALLOCATIONS + " per job (one machine runs them all)"));
            }
        }
        if (p.size() != before) {
            return null;
        }
        return new Job(id, name, type, datacenters == null ? List.of() : datacenters, groups, source,
                new io.drover.core.spec.JobRuntime(region, namespace, meta, ""), constraints, priority,
                new io.drover.core.spec.ClusterFields(cluster), launch);
    }

    /** The single label of a block, null when it has none or several (that problem is reported elsewhere). */
    private static String labelOf(Field field) {
        return field.value() instanceof Node.Mapping m && m.labels().size() == 1 ? m.labels().get(0) : null;
    }

    private static JobType jobType(MapReader r) throws TreeProblem {
        String type = r.string("type", JobType.SERVICE.wireName());
        return JobType.fromWire(type).orElseThrow(() -> r.problem("type",
                "must be batch, service, system or sysbatch, found \"" + type + "\""));
    }

    /** Refuses a job id, group or task name that is not one safe path component ({@link SafeName}). */
    private static Void safeName(Field field, String path, String what, String name) throws TreeProblem {
        java.util.Optional<String> problem = SafeName.problem(name);
        if (problem.isPresent()) {
            throw new TreeProblem(field.line(), path, what + " " + problem.get());
        }
        return null;
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

    /**
     * A {@code task} block directly in the job, as Nomad's jobspec2 reads it: a group of its own named after the
     * task, count 1, the job type's restart policy, no group meta or network.
     *
     * @return the group, null when the task has a problem (recorded in {@code p})
     */
    private static TaskGroup loneTaskGroup(Field field, MapReader job, JobType type, Problems p,
            List<io.drover.core.spec.Constraint> constraints) {
        String name = labelOf(field);
        Task task = task(field, job, type.defaultRestart(), null, p, name, constraints, null);
        if (task == null) {
            return null;
        }
        if (task.lifecycle() != null) {
            p.add(new TreeProblem(field.line(), job.path() + " > task \"" + task.name() + "\"",
                    "a task directly in the job is its group's only task, so it must be a main task (no lifecycle)"));
            return null;
        }
        return new TaskGroup(task.name(), 1, type.defaultRestart(), null, List.of(task), field.line(),
                io.drover.core.spec.GroupRuntime.NONE, io.drover.core.spec.ClusterFields.NONE);
    }

    /** @return the group, null when it has a problem (recorded in {@code p}) */
    private static TaskGroup group(Field field, MapReader job, JobType type, Problems p,
            List<io.drover.core.spec.Constraint> constraints) {
        int before = p.size();
        String name = p.read(() -> label(field, "group", "the group name", job.path()), null);
        if (name == null) {
            return null;
        }
        String path = job.path() + " > group \"" + SafeName.shown(name) + "\"";
        if (name.isBlank()) {
            p.add(new TreeProblem(field.line(), path, "the group name must not be empty"));
        } else {
            p.read(() -> safeName(field, path, "the group name", name), null);
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), path, job.vocabulary(),
                concat(GROUP_KEYS, cluster(job.vocabulary(), ClusterBlocks.GROUP_SINGLE)),
                concat(PlacementMapper.withBlocks("task"), cluster(job.vocabulary(), ClusterBlocks.GROUP_REPEATABLE)), p);
        Map<String, Object> cluster = ClusterBlocks.check(r, p, true);
        MaxRunDuration.read(r, type, p, cluster);
        int count = (int) (long) p.read(() -> r.integer("count", 1, 0, MAX_ALLOCATIONS), 1L);
        if (type.perNode() && count > 1) { // Nomad's own check and words
            p.add(r.problem("count", "Job task group " + name + " has count " + count
                    + ". Count cannot exceed 1 with system scheduler"));
        }
        constraints.addAll(PlacementMapper.read(r, name, null, p, cluster));
        RestartPolicy restart = restart(r.child("restart", RESTART_KEYS, List.of(), p), type.defaultRestart(), p);
        Duration maxRuntime = p.read(() -> r.duration("max_runtime", null, true), null);
        Map<String, String> meta = RuntimeMapper.meta(r, p);
        io.drover.core.spec.Network network = NetworkMapper.network(r, p);
        Map<String, io.drover.core.spec.VolumeRequest> volumes = VolumeMapper.group(r, type, p);
        java.util.Set<String> volumeNames = VolumeMapper.names(r);
        List<Field> taskFields = r.all("task");
        if (taskFields.isEmpty()) {
            p.add(new TreeProblem(r.line(), path, "the group has no task"));
        }
        List<Task> tasks = new ArrayList<>();
        Map<String, Integer> taskLines = new HashMap<>();
        String leader = null;
        boolean allTasksRead = true;
        for (Field t : taskFields) {
            Task task = task(t, r, restart, maxRuntime, p, name, constraints, volumeNames);
            String taskName = task != null ? task.name() : labelOf(t);
            Integer first = taskName == null ? null : taskLines.putIfAbsent(taskName, t.line());
            if (first != null) {
                p.add(new TreeProblem(t.line(), path + " > task \"" + taskName + "\"",
                        "duplicate task name (first at line " + first + ")"));
            }
            if (task == null) {
                allTasksRead = false;
                continue;
            }
            if (task.leader()) {
                if (leader != null) {
                    p.add(new TreeProblem(leaderLine(t), path + " > task \"" + task.name() + "\" > leader",
                            "more than one leader in the group (task \"" + leader + "\" is one already)"));
                } else {
                    leader = task.name();
                }
            }
            tasks.add(task);
        }
        if (allTasksRead && !tasks.isEmpty() && tasks.stream().noneMatch(t -> t.lifecycle() == null)) {
            p.add(new TreeProblem(field.line(), path, "the group has no main task (a task without a lifecycle block)"));
        }
        if (network != null) {
            ServiceMapper.checkPorts(path, field.line(), network, cluster, tasks, p);
        }
        if (p.size() != before) {
            return null;
        }
        return new TaskGroup(name, count, restart, maxRuntime, tasks, field.line(),
                new io.drover.core.spec.GroupRuntime(meta, network, volumes),
                new io.drover.core.spec.ClusterFields(cluster));
    }

    private static int leaderLine(Field task) {
        return ((Node.Mapping) task.value()).fields().stream().filter(f -> "leader".equals(f.key()))
                .mapToInt(Field::line).findFirst().orElse(task.line());
    }

    /** @return the task, null when it has a problem (recorded in {@code p}) */
    private static Task task(Field field, MapReader group, RestartPolicy groupRestart, Duration groupMaxRuntime,
            Problems p, String groupName, List<io.drover.core.spec.Constraint> constraints,
            java.util.Set<String> volumes) {
        int before = p.size();
        String name = p.read(() -> label(field, "task", "the task name", group.path()), null);
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
                concat(concat(TASK_KEYS, ScheduleMapper.TASK_KEYS), cluster(group.vocabulary(), ClusterBlocks.TASK_SINGLE)),
                concat(concat(List.of("artifact", "template", WorkloadMapper.IDENTITY), cluster(group.vocabulary(), ClusterBlocks.TASK_REPEATABLE)),
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
        RestartPolicy restart = restart(r.child("restart", RESTART_KEYS, List.of(), p), groupRestart, p);
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

    /** A {@code restart} block over {@code base}: keys it leaves out keep the base's values (Nomad's merge). */
    static RestartPolicy restart(MapReader r, RestartPolicy base, Problems p) {
        if (r == null) {
            return base;
        }
        int before = p.size();
        int attempts = (int) (long) p.read(() -> r.integer("attempts", base.attempts(), 0, Integer.MAX_VALUE),
                (long) base.attempts());
        Duration interval = p.read(() -> r.duration("interval", base.interval(), false), base.interval());
        Duration delay = p.read(() -> r.duration("delay", base.delay(), false), base.delay());
        String modeName = p.read(() -> r.string("mode", base.mode().wireName()), base.mode().wireName());
        RestartMode mode = RestartMode.fromWire(modeName).orElse(null);
        if (mode == null) {
            p.add(r.problem("mode", "must be fail or delay, found \"" + modeName + "\""));
        }
        return p.size() != before ? base : new RestartPolicy(attempts, interval, delay, mode);
    }
}
