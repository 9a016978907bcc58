package io.drover.testkit;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a parsed job for the kit: tasks of simulated drivers run on the mock driver, and tasks given a mock
 * config get it. Pure.
 */
final class JobRewrite {
    private JobRewrite() {}

    /**
     * @param simulated drivers whose tasks run on the mock driver (their config replaced by {} unless given)
     * @param mockConfigs mock configs by task name (any group); a task named here runs on the mock driver
     * @throws IllegalArgumentException when a task named in {@code mockConfigs} is not in the job
     */
    static Job apply(Job job, Set<String> simulated, Map<String, Map<String, Object>> mockConfigs) {
        Set<String> unused = new HashSet<>(mockConfigs.keySet());
        List<TaskGroup> groups = new ArrayList<>();
        for (TaskGroup g : job.groups()) {
            List<Task> tasks = new ArrayList<>();
            for (Task t : g.tasks()) {
                Map<String, Object> given = mockConfigs.get(t.name());
                unused.remove(t.name());
                if (given == null && !simulated.contains(t.driver())) {
                    tasks.add(t);
                    continue;
                }
                Map<String, Object> config = given != null ? given : Map.of();
                tasks.add(new Task(t.name(), "mock", config, t.env(), t.leader(), t.lifecycle(), t.killTimeout(),
                        t.killSignal(), t.shutdownDelay(), t.maxRuntime(), t.logs(), t.restart(), t.line(), t.runtime()));
            }
            groups.add(new TaskGroup(g.name(), g.count(), g.restart(), g.maxRuntime(), tasks, g.line(), g.runtime()));
        }
        if (!unused.isEmpty()) {
            throw new IllegalArgumentException("mock config given for task(s) " + new java.util.TreeSet<>(unused)
                    + " that job \"" + job.id() + "\" does not have");
        }
        return new Job(job.id(), job.name(), job.type(), job.datacenters(), groups, job.source(), job.runtime());
    }
}
