package io.drover.agent;

import io.drover.core.config.TaskLimits;
import io.drover.core.spec.Job;
import java.util.Optional;

/**
 * What refuses a registration before anything is stopped or placed: Nomad's {@code EnforceIndex} check-and-set
 * and the client's task limits. Pure; called by the registry under its lock.
 */
final class RegisterGuards {
    private RegisterGuards() {}

    /**
     * Nomad's check-and-set of {@code EnforceIndex} {@code want} against the job's {@code current} entry (null: no
     * such job), in Nomad's words.
     */
    static void enforceIndex(JobRegistry.Entry current, long want) {
        if (want == 0 && current != null) {
            throw new JobRegistry.IndexConflictException("Enforcing job modify index 0: job already exists");
        }
        if (want != 0 && current == null) {
            throw new JobRegistry.IndexConflictException("Enforcing job modify index " + want
                    + ": job does not exist");
        }
        if (want != 0 && current.jobModifyIndex() != want) {
            throw new JobRegistry.IndexConflictException("Enforcing job modify index " + want
                    + ": job exists with conflicting job modify index: " + current.jobModifyIndex());
        }
    }

    /** Refuses {@code job} when over {@code max_tasks_per_job}, or with the live tasks over {@code max_tasks}. */
    static void taskLimits(TaskLimits limits, long liveTasks, Job job) {
        Optional<String> over = limits.perJobProblem(job)
                .or(() -> limits.totalProblem(liveTasks, TaskLimits.tasksOf(job)));
        if (over.isPresent()) {
            throw new JobRegistry.TooManyTasksException(over.get());
        }
    }
}
