package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.SafeName;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.spec.parse.tree.Vocabulary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds and validates a {@link Job} from a job file's neutral tree in the jobspec's shape (HCL as is, JSON
 * after {@link JsonJobShape}). With the mappers of its blocks ({@link GroupMapper}, {@link TaskMapper},
 * {@link RestartMapper} and the others of this package), the one place where the job schema, Nomad's defaults and
 * the validation rules live. Pure. Every problem found is recorded in a {@link Problems}, not thrown: a bad key
 * falls back to its default so that the block's other keys are still read, and a bad group or task does not stop
 * the others. A record is built only from a block without problems (the job's result is null when there is any).
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

    private JobMapper() {}

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
        String id = p.read(() -> BlockLabels.label(field, "job", "the job id", ""), null);
        if (id == null) {
            return null;
        }
        if (id.isBlank()) {
            p.add(new TreeProblem(field.line(), "job", "the job id must not be empty"));
        } else if (SafeName.problem(id).isPresent()) {
            p.read(() -> BlockLabels.safeName(field, "job \"" + SafeName.shown(id) + "\"", "the job id", id), null);
        } else if (id.chars().anyMatch(Character::isWhitespace)) {
            p.add(new TreeProblem(field.line(), "job \"" + id + "\"", "the job id must not contain spaces"));
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), "job \"" + id + "\"", vocab,
                KeyLists.concat(KeyLists.concat(JOB_KEYS, ScheduleMapper.JOB_KEYS), KeyLists.cluster(vocab, ClusterBlocks.JOB_SINGLE)),
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
                    : GroupMapper.group(g, r, type, p, constraints);
            String groupName = group != null ? group.name() : BlockLabels.labelOf(g);
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

    private static JobType jobType(MapReader r) throws TreeProblem {
        String type = r.string("type", JobType.SERVICE.wireName());
        return JobType.fromWire(type).orElseThrow(() -> r.problem("type",
                "must be batch, service, system or sysbatch, found \"" + type + "\""));
    }

    /**
     * A {@code task} block directly in the job, as Nomad's jobspec2 reads it: a group of its own named after the
     * task, count 1, the job type's restart policy, no group meta or network.
     *
     * @return the group, null when the task has a problem (recorded in {@code p})
     */
    private static TaskGroup loneTaskGroup(Field field, MapReader job, JobType type, Problems p,
            List<io.drover.core.spec.Constraint> constraints) {
        String name = BlockLabels.labelOf(field);
        Task task = TaskMapper.task(field, job, type.defaultRestart(), null, p, name, constraints, null);
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
}
