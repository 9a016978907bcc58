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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an allocation shows of itself: its name, the {@link AllocationState} it persists and publishes (built from
 * its task runners and lifecycle), and its tasks' runtime environment. Reads the allocation's parts, changes
 * nothing.
 *
 * <p>Serial executor of the allocation only (it reads the runners' state).
 */
final class AllocView {
    private final String id;
    private final Job job;
    private final TaskGroup group;
    private final int index;
    private final long createTime;
    private final Timers timers;
    private final AllocDirs dirs;
    private final List<TaskRunner> runners;
    private final AllocLifecycle lifecycle;

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

    /** The task's merged meta (task over group over job). */
    Map<String, String> meta(Task task) {
        return RuntimeEnv.meta(job, group, task);
    }

    /** Nomad's runtime variables of a task, the group's ports, and a poststop task's result variables. */
    Map<String, String> runtimeEnv(Task task, PortAllocator.Assignment network) throws UnsafePathException {
        Map<String, String> env = RuntimeEnv.of(job, group, task, id, name(), index, dirs);
        if (network.resources() != null) {
            env.putAll(RuntimeEnv.ports(network.resources()));
        }
        if (task.kind() == TaskKind.POSTSTOP) {
            env.put("DROVER_ALLOC_RESULT", lifecycle.mainTasksSucceeded() ? "success" : "failed");
            env.put("DROVER_FAILED_TASKS", String.join(",", lifecycle.failedTasks()));
        }
        return env;
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
