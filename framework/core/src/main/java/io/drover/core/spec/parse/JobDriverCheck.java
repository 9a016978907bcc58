package io.drover.core.spec.parse;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The checks of a job that need the loaded drivers: every task's driver is loaded, and the driver accepts the
 * task's {@code config} block: first through the driver's declared schema ({@code TaskDriver.taskConfigSchema},
 * every problem of the block at once; a {@code ${...}} value is checked at start), then, for a block the schema
 * accepts, through {@code TaskDriver.validateConfig}. Pure. Problems carry the task's line and a
 * key such as {@code job "x" > group "g" > task "t" > config > args}. A driver whose {@code validateConfig}
 * throws is reported as a problem of that task, never propagated.
 */
public final class JobDriverCheck {
    private JobDriverCheck() {}

    /** @return one exception per problem, empty when the job can run */
    public static List<JobFileException> check(Job job, DriverCatalog drivers) {
        List<JobFileException> problems = new ArrayList<>();
        for (TaskGroup group : job.groups()) {
            for (Task task : group.tasks()) {
                String path = "job \"" + job.id() + "\" > group \"" + group.name() + "\" > task \"" + task.name() + "\"";
                Optional<TaskDriver> driver = drivers.driver(task.driver());
                if (driver.isEmpty()) {
                    TreeSet<String> loaded = new TreeSet<>(drivers.names());
                    problems.add(new JobFileException(job.source(), task.line(), path + " > driver",
                            "unknown driver \"" + task.driver() + "\" (loaded: "
                                    + (loaded.isEmpty() ? "none" : String.join(", ", loaded)) + ")"
                                    + drivers.refusal().map(why -> "; the agent loaded no plugin: " + why).orElse("")));
                    continue;
                }
                Optional<ConfigSchema> schema = schema(driver.get());
                TaskUserConfig.problem(task, task.driver(), schema, System.getProperty("user.name", ""))
                        .ifPresent(why -> problems.add(new JobFileException(job.source(), task.line(),
                                path + " > user", why)));
                for (ConfigProblem p : validate(driver.get(), task)) {
                    String key = p.key() == null || p.key().isEmpty() ? path + " > config" : path + " > config > " + p.key();
                    problems.add(new JobFileException(job.source(), task.line(), key, p.message()));
                }
            }
        }
        return problems;
    }

    private static Optional<ConfigSchema> schema(TaskDriver driver) {
        try {
            Optional<ConfigSchema> s = driver.taskConfigSchema();
            return s == null ? Optional.empty() : s;
        } catch (RuntimeException e) {
            return Optional.empty(); // validate reports the driver's failure
        }
    }

    private static List<ConfigProblem> validate(TaskDriver driver, Task task) {
        try {
            Optional<ConfigSchema> schema = driver.taskConfigSchema();
            if (schema != null && schema.isPresent()) {
                List<ConfigProblem> found = schema.get().check(task.config(), "the " + task.driver() + " driver")
                        .problems();
                if (!found.isEmpty()) {
                    return found;
                }
            }
            List<ConfigProblem> found = driver.validateConfig(TaskUserConfig.apply(task, task.config(), schema));
            return found == null ? List.of() : found.stream().filter(p -> p != null).toList();
        } catch (RuntimeException e) {
            return List.of(new ConfigProblem("", "driver " + task.driver() + " failed to check the config: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
        }
    }
}
