package io.drover.core.gc;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.util.Map;

/** Turns an allocation snapshot into what GC selection sees. Pure. */
final class GcCandidates {
    private GcCandidates() {}

    static GcCandidate of(AllocationState a, GcKillPolicy policy, DirUsage usage) {
        boolean anyLive = false;
        boolean onlyPoststopLive = true;
        boolean killable = true;
        if (!a.terminal()) {
            Map<String, Task> tasks = new java.util.HashMap<>();
            a.group().tasks().forEach(t -> tasks.put(t.name(), t));
            for (Map.Entry<String, TaskState> e : a.taskStates().entrySet()) {
                if (e.getValue().state() == TaskLifeState.DEAD) {
                    continue;
                }
                anyLive = true;
                Task task = tasks.get(e.getKey());
                if (task == null || task.kind() != TaskKind.POSTSTOP) {
                    onlyPoststopLive = false;
                } else if (!policy.killsPoststop(task.lifecycle())) {
                    killable = false;
                }
            }
        }
        boolean poststopOnly = !a.terminal() && anyLive && onlyPoststopLive;
        return new GcCandidate(a.id(), a.createTime(), a.terminalAt(), poststopOnly, poststopOnly && killable,
                usage.bytes(), usage.inodes());
    }
}
