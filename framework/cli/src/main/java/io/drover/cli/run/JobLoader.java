package io.drover.cli.run;

import io.drover.core.config.TaskLimits;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobDriverCheck;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.spec.parse.hcl.HclInputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads every job file of a command line and checks it against the loaded drivers and the client's task limits
 * ({@code max_tasks_per_job} per job, {@code max_tasks} for all the jobs together: {@code drover run} places them
 * all at once), collecting every problem of every file, so that nothing runs unless all of them can.
 */
final class JobLoader {
    /** The jobs (in command-line order) when {@code problems} is empty. */
    record Result(List<Job> jobs, List<JobFileException> problems) {
        boolean ok() {
            return problems.isEmpty();
        }
    }

    private JobLoader() {}

    static Result load(List<Path> files, DriverCatalog drivers, TaskLimits limits) {
        return load(files, HclInputs.NONE, drivers, limits);
    }

    /** @param inputs the job variables' values ({@code -var}, {@code -var-file}, {@code NOMAD_VAR_*}) */
    static Result load(List<Path> files, HclInputs inputs, DriverCatalog drivers, TaskLimits limits) {
        List<Job> jobs = new ArrayList<>();
        List<JobFileException> problems = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                problems.add(new JobFileException(file.toString(), 0, "",
                        Files.exists(file) ? "not a regular file" : "no such file"));
                continue;
            }
            try {
                Job job = JobFileParser.parse(file, inputs);
                List<JobFileException> driverProblems = new ArrayList<>(JobDriverCheck.check(job, drivers));
                limits.perJobProblem(job).ifPresent(p -> driverProblems.add(
                        new JobFileException(job.source(), 0, "job \"" + job.id() + "\"", p)));
                if (job.launch().parent()) { // runs nothing itself: its children need an agent's schedule or dispatch
                    driverProblems.add(new JobFileException(job.source(), 0, "job \"" + job.id() + "\"", "a "
                            + (job.launch().periodic() != null ? "periodic" : "parameterized") + " job runs nothing "
                            + "itself; register it with an agent (drover job run) to launch its children"));
                }
                if (driverProblems.isEmpty()) {
                    jobs.add(job);
                } else {
                    problems.addAll(driverProblems);
                }
            } catch (JobFileException e) {
                problems.addAll(e.problems()); // every problem of the file, not only the first
            }
        }
        long tasks = jobs.stream().mapToLong(TaskLimits::tasksOf).sum();
        if (problems.isEmpty() && tasks > limits.maxTasks()) {
            problems.add(new JobFileException("drover run", 0, "", "the " + jobs.size() + " jobs place " + tasks
                    + " tasks together; at most " + limits.maxTasks() + " (client max_tasks)"));
        }
        return new Result(List.copyOf(jobs), List.copyOf(problems));
    }
}
