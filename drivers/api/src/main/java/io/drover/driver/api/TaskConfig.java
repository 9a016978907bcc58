package io.drover.driver.api;

import java.nio.file.Path;
import java.util.Map;

/**
 * One run of a task, as the host asks a driver to start it. {@code config} and {@code env} already have
 * {@code ${...}} references interpolated.
 *
 * @param taskId unique id of this run (a restart gets a new one)
 * @param allocId the allocation's id
 * @param jobId the job's id
 * @param groupName the task group's name
 * @param taskName the task's name
 * @param config the task's {@code config { ... }} block, values are String, Long, Double, Boolean, List or Map
 * @param env the full environment of the task (task env plus the NOMAD_* runtime variables)
 * @param taskDir the task's directory ({@code <alloc dir>/<task>}), created by the host; the default work dir
 * @param allocDir the allocation's shared {@code alloc} directory
 * @param stdoutPath where the task's standard output goes (the host creates the parent folder)
 * @param stderrPath where the task's standard error goes
 */
public record TaskConfig(
        String taskId,
        String allocId,
        String jobId,
        String groupName,
        String taskName,
        Map<String, Object> config,
        Map<String, String> env,
        Path taskDir,
        Path allocDir,
        Path stdoutPath,
        Path stderrPath) {
    public TaskConfig {
        config = Map.copyOf(config);
        env = Map.copyOf(env);
    }
}
