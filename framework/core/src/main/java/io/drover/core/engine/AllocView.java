package io.drover.core.engine;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an allocation shows of itself: its name, the {@link AllocationState} it persists and publishes (built from
 * its task runners and lifecycle), and its tasks' paths and runtime environment. Reads the allocation's parts,
 * changes nothing; what does not change during the allocation's life (a task's paths, its runtime variables but
 * the poststop results, its merged meta) is derived once per task and kept.
 *
 * <p>Serial executor of the allocation only (it reads the runners' state; the kept values are plain maps).
 */
final class AllocView {
    private final String id;
    private final Job job;
    private final TaskGroup group;
    private final int index;

    /** The allocation's index in its group (0-based). */
    int index() {
        return index;
    }
    private final long createTime;
    private final Timers timers;
    private final AllocDirs dirs;
    private final List<TaskRunner> runners;
    private final AllocLifecycle lifecycle;
    private final Map<String, TaskPaths> paths = new HashMap<>();
    private final Map<String, Map<String, String>> envs = new HashMap<>();
    private final Map<String, Map<String, String>> metas = new HashMap<>();

    AllocView(String id, Job job, TaskGroup group, int index, long createTime, Timers timers, AllocDirs dirs,
            List<TaskRunner> runners, AllocLifecycle lifecycle) {
        this.id = id;
        this.job = job;
        this.group = group;
        this.index = index;
        this.createTime = createTime;
        this.timers = timers;
        this.dirs = dirs;
        this.runners = runners;
        this.lifecycle = lifecycle;
    }

    /** Nomad's allocation name, {@code job.group[index]}. */
    String name() {
        return job.id() + "." + group.name() + "[" + index + "]";
    }

    /** The task's merged meta (task over group over job), unmodifiable; derived once per task. */
    Map<String, String> meta(Task task) {
        Map<String, String> meta = metas.get(task.name());
        if (meta == null) {
            meta = Collections.unmodifiableMap(RuntimeEnv.meta(job, group, task));
            metas.put(task.name(), meta);
        }
        return meta;
    }

    /**
     * The task's checked paths, derived once per task. A name that gives no path inside the allocation throws at
     * every call (it is not kept).
     */
    TaskPaths paths(String task) throws UnsafePathException {
        TaskPaths p = paths.get(task);
        if (p == null) {
            p = TaskPaths.of(dirs, task);
            paths.put(task, p);
        }
        return p;
    }

    /**
     * Nomad's runtime variables of a task, the group's ports, and a poststop task's result variables; unmodifiable.
     * All but the results are derived once per task: the allocation's network is assigned before any task runs
     * ({@code network} is the same at every call).
     */
    Map<String, String> runtimeEnv(Task task, PortAllocator.Assignment network) throws UnsafePathException {
        Map<String, String> env = envs.get(task.name());
        if (env == null) {
            Map<String, String> base = RuntimeEnv.of(job, group, task, id, name(), index, dirs, paths(task.name()));
            if (network.resources() != null) {
                base.putAll(RuntimeEnv.ports(network.resources()));
            }
            env = Collections.unmodifiableMap(base);
            envs.put(task.name(), env);
        }
        if (task.kind() != TaskKind.POSTSTOP) {
            return env;
        }
        Map<String, String> results = new LinkedHashMap<>(env);
        results.put("DROVER_ALLOC_RESULT", lifecycle.mainTasksSucceeded() ? "success" : "failed");
        results.put("DROVER_FAILED_TASKS", String.join(",", lifecycle.failedTasks()));
        return Collections.unmodifiableMap(results);
    }

    /** The allocation's state now: every task's state, the client status they and the lifecycle give. */
    AllocationState snapshot(DesiredStatus desired, PortAllocator.Assignment network) {
        Map<String, TaskState> states = new LinkedHashMap<>();
        boolean allDead = true;
        boolean anyFailed = false;
        boolean anyStarted = false;
        for (TaskRunner r : runners) {
            states.put(r.name(), r.state());
            allDead &= r.dead();
            anyFailed |= r.failed();
            anyStarted |= r.everStarted();
        }
        ClientStatus status;
        if (lifecycle.phase() == AllocLifecycle.Phase.DONE && allDead) {
            status = anyFailed ? ClientStatus.FAILED : ClientStatus.COMPLETE;
        } else if (anyStarted) {
            status = ClientStatus.RUNNING;
        } else {
            status = ClientStatus.PENDING;
        }
        String desiredDescription = desired == DesiredStatus.STOP ? "alloc was stopped" : "";
        return new AllocationState(id, name(), job.id(), group.name(), index, status, status.description(),
                desired, desiredDescription, createTime, Nanos.of(timers.now()), states, job, network.resources());
    }
}
