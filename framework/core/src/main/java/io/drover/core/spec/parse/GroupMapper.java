package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.SafeName;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and validates a {@code group} block of a job ({@link JobMapper}): its keys, its tasks (through
 * {@link TaskMapper}), their names and leader, its network's ports. Pure; problems are recorded, not thrown.
 */
final class GroupMapper {
    private static final List<String> GROUP_KEYS = List.of("count", "restart", "max_runtime", "meta", "network",
            "max_run_duration");

    private GroupMapper() {}

    /** @return the group, null when it has a problem (recorded in {@code p}) */
    static TaskGroup group(Field field, MapReader job, JobType type, Problems p,
            List<io.drover.core.spec.Constraint> constraints) {
        int before = p.size();
        String name = p.read(() -> BlockLabels.label(field, "group", "the group name", job.path()), null);
        if (name == null) {
            return null;
        }
        String path = job.path() + " > group \"" + SafeName.shown(name) + "\"";
        if (name.isBlank()) {
            p.add(new TreeProblem(field.line(), path, "the group name must not be empty"));
        } else {
            p.read(() -> BlockLabels.safeName(field, path, "the group name", name), null);
        }
        MapReader r = MapReader.open((Node.Mapping) field.value(), path, job.vocabulary(),
                KeyLists.concat(GROUP_KEYS, KeyLists.cluster(job.vocabulary(), ClusterBlocks.GROUP_SINGLE)),
                KeyLists.concat(PlacementMapper.withBlocks("task"), KeyLists.cluster(job.vocabulary(), ClusterBlocks.GROUP_REPEATABLE)), p);
        Map<String, Object> cluster = ClusterBlocks.check(r, p, true);
        MaxRunDuration.read(r, type, p, cluster);
        int count = (int) (long) p.read(() -> r.integer("count", 1, 0, JobMapper.MAX_ALLOCATIONS), 1L);
        if (type.perNode() && count > 1) { // Nomad's own check and words
            p.add(r.problem("count", "Job task group " + name + " has count " + count
                    + ". Count cannot exceed 1 with system scheduler"));
        }
        constraints.addAll(PlacementMapper.read(r, name, null, p, cluster));
        RestartPolicy restart = RestartMapper.restart(r.child("restart", RestartMapper.KEYS, List.of(), p), type.defaultRestart(), p);
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
            Task task = TaskMapper.task(t, r, restart, maxRuntime, p, name, constraints, volumeNames);
            String taskName = task != null ? task.name() : BlockLabels.labelOf(t);
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
}
