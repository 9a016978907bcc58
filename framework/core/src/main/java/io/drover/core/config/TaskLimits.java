package io.drover.core.config;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.util.Optional;

/**
 * The client block's bounds on tasks, checked when a job is registered ({@code PUT /v1/jobs}, {@code drover
 * run}): every task of every allocation is a runner, a state and its events in the agent's heap, so without a
 * bound one job ({@code count = 10000} groups of 20 tasks) exhausted the heap and killed the agent. Pure.
 *
 * @param maxTasksPerJob {@code max_tasks_per_job}: most tasks one job places, its groups' {@code count} times
 *     their tasks, summed
 * @param maxTasks {@code max_tasks}: most tasks of allocations that are not terminal yet, on the whole agent,
 *     the job being registered included
 * @param maxTasksPerGroup {@code max_tasks_per_group}: most tasks in one group, i.e. in one allocation. One
 *     allocation's actions run one at a time and each rebuilds its snapshot from every task, so a group of
 *     100,000 tasks took minutes to start and queued a stop behind that work (a SIGTERM to {@code drover run}
 *     went unanswered for 50 s); many allocations of few tasks run in parallel and have no such cost
 */
public record TaskLimits(int maxTasksPerJob, int maxTasks, int maxTasksPerGroup) {
    /**
     * 10,000 tasks per job (the engine's measured 10,000 live tasks, docs/performance.md, in one job), 20,000
     * live tasks in all (about a tenth of what exhausted a 512 MiB heap) and 1,000 tasks per group (a 2,000-task
     * group starts, and stops on SIGTERM, within seconds: {@code HugeRunEndToEndTest}; Nomad jobs have a few).
     */
    public static final TaskLimits DEFAULTS = new TaskLimits(10_000, 20_000, 1_000);

    public TaskLimits {
        if (maxTasksPerJob < 1 || maxTasks < 1 || maxTasksPerGroup < 1) {
            throw new IllegalArgumentException("task limits must be positive");
        }
    }

    /** {@code max_tasks_per_job} and {@code max_tasks}, with the default {@code max_tasks_per_group}. */
    public TaskLimits(int maxTasksPerJob, int maxTasks) {
        this(maxTasksPerJob, maxTasks, DEFAULTS_PER_GROUP);
    }

    private static final int DEFAULTS_PER_GROUP = 1_000;

    /** The tasks a job places: each group's {@code count} times its tasks, summed. */
    public static long tasksOf(Job job) {
        long n = 0;
        for (TaskGroup g : job.groups()) {
            n += (long) g.count() * g.tasks().size();
        }
        return n;
    }

    /** Why the job is over {@code max_tasks_per_group} (its first such group) or {@code max_tasks_per_job}, or empty. */
    public Optional<String> perJobProblem(Job job) {
        for (TaskGroup g : job.groups()) {
            if (g.tasks().size() > maxTasksPerGroup) {
                return Optional.of("group \"" + g.name() + "\" has " + g.tasks().size() + " tasks; at most "
                        + maxTasksPerGroup + " per group (client max_tasks_per_group)");
            }
        }
        long n = tasksOf(job);
        if (n <= maxTasksPerJob) {
            return Optional.empty();
        }
        return Optional.of("the job places " + n + " tasks (each group's count times its tasks); at most "
                + maxTasksPerJob + " per job (client max_tasks_per_job)");
    }

    /**
     * Why placing {@code incoming} more tasks beside {@code live} ones is over {@code max_tasks}, or empty.
     */
    public Optional<String> totalProblem(long live, long incoming) {
        if (live + incoming <= maxTasks) {
            return Optional.empty();
        }
        return Optional.of("the job places " + incoming + " tasks and " + live + " are live already; at most "
                + maxTasks + " in all (client max_tasks); try again once some allocations have ended");
    }
}
