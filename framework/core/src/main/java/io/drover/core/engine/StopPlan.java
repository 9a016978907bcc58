package io.drover.core.engine;

import io.drover.core.spec.TaskKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The order in which live tasks are stopped (contract §2.4): leader first, then the other non-sidecar tasks
 * (main, poststart, a prestart still running), then sidecars; within a stage, reverse declaration order.
 * Poststop tasks are not part of it: they run after. Pure.
 */
final class StopPlan {
    private StopPlan() {}

    /** @param runners live (not dead) runners, in declaration order */
    static List<List<TaskRunner>> stages(List<TaskRunner> runners) {
        List<TaskRunner> leaders = new ArrayList<>();
        List<TaskRunner> others = new ArrayList<>();
        List<TaskRunner> sidecars = new ArrayList<>();
        for (int i = runners.size() - 1; i >= 0; i--) {
            TaskRunner r = runners.get(i);
            if (r.kind() == TaskKind.POSTSTOP) {
                continue;
            }
            if (r.task().leader()) {
                leaders.add(r);
            } else if (r.kind().sidecar()) {
                sidecars.add(r);
            } else {
                others.add(r);
            }
        }
        List<List<TaskRunner>> stages = new ArrayList<>();
        for (List<TaskRunner> stage : List.of(leaders, others, sidecars)) {
            if (!stage.isEmpty()) {
                stages.add(stage);
            }
        }
        return stages;
    }
}
