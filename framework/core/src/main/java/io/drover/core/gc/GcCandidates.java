package io.drover.core.gc;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.util.List;
import java.util.Map;

/** Turns an allocation snapshot into what GC selection sees. Pure. */
final class GcCandidates {
    private GcCandidates() {}

    static GcCandidate of(AllocationState a, GcKillPolicy policy, DirUsage usage) {
        boolean anyLive = false;
        boolean onlyPoststopLive = true;
        boolean killable = true;
        if (!a.terminal()) {
            // runs for every live allocation before every placement: no map built, the group looked up once, and
            // the first live task that is not a poststop one settles it
            List<Task> tasks = null;
            for (Map.Entry<String, TaskState> e : a.taskStates().entrySet()) {
                if (e.getValue().state() == TaskLifeState.DEAD) {
                    continue;
                }
                anyLive = true;
                if (tasks == null) {
                    tasks = a.group().tasks();
                }
                Task task = named(tasks, e.getKey());
                if (task == null || task.kind() != TaskKind.POSTSTOP) {
                    onlyPoststopLive = false;
                    break;
                } else if (!policy.killsPoststop(task.lifecycle())) {
                    killable = false;
                }
            }
        }
        boolean poststopOnly = !a.terminal() && anyLive && onlyPoststopLive;
        return new GcCandidate(a.id(), a.createTime(), a.terminalAt(), poststopOnly, poststopOnly && killable,
                usage.bytes(), usage.inodes());
    }

    private static Task named(List<Task> tasks, String name) {
        for (Task t : tasks) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }
}
