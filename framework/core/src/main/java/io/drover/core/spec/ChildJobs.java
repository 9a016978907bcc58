package io.drover.core.spec;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The child jobs a parent launches, as Nomad derives them: the parent's groups and tasks under the child's id
 * (also its name), {@code ParentID} set, the launch block cleared (a periodic child) or marked dispatched. Pure.
 */
public final class ChildJobs {
    private ChildJobs() {}

    /**
     * The periodic child launched at {@code launch}: {@code <parent>/periodic-<unix seconds>}, without the periodic
     * block (a parent that was itself dispatched passes on its dispatched parameterized block, as Nomad does).
     */
    public static Job periodic(Job parent, Instant launch) {
        String id = Periodic.childId(parent.id(), launch);
        JobRuntime r = parent.runtime();
        JobLaunch l = parent.launch();
        JobLaunch launched = l.dispatched() ? new JobLaunch(null, l.parameterized(), true) : JobLaunch.NONE;
        return new Job(id, id, parent.type(), parent.datacenters(), parent.groups(), parent.source(),
                new JobRuntime(r.region(), r.namespace(), r.meta(), parent.id()), parent.constraints(), parent.priority(),
                parent.cluster(), launched);
    }

    /**
     * A dispatched child: the dispatch's meta over the job's, the payload (base64, null or empty when none) in
     * every task's {@code dispatch_payload}. A parent that is periodic too keeps its {@code periodic} block in the
     * child, which is then a periodic parent (Nomad's dispatch copies the job whole).
     */
    public static Job dispatched(Job parent, String id, Map<String, String> meta, String payload) {
        JobRuntime r = parent.runtime();
        Map<String, String> merged = new LinkedHashMap<>(r.meta());
        merged.putAll(meta);
        List<TaskGroup> groups = new ArrayList<>();
        for (TaskGroup g : parent.groups()) {
            List<Task> tasks = g.tasks().stream().map(t -> withPayload(t, payload)).toList();
            groups.add(new TaskGroup(g.name(), g.count(), g.restart(), g.maxRuntime(), tasks, g.line(), g.runtime(),
                    g.cluster()));
        }
        return new Job(id, id, parent.type(), parent.datacenters(), groups, parent.source(),
                new JobRuntime(r.region(), r.namespace(), merged, parent.id()), parent.constraints(), parent.priority(),
                parent.cluster(), new JobLaunch(parent.launch().periodic(), parent.launch().parameterized(), true));
    }

    private static Task withPayload(Task t, String payload) {
        TaskRuntime rt = t.runtime();
        if (rt.dispatchPayload() == null) {
            return t;
        }
        TaskRuntime with = rt.withDispatchPayload(rt.dispatchPayload().withPayload(payload));
        return new Task(t.name(), t.driver(), t.config(), t.env(), t.leader(), t.lifecycle(), t.killTimeout(),
                t.killSignal(), t.shutdownDelay(), t.maxRuntime(), t.logs(), t.restart(), t.line(), with, t.cluster());
    }
}
