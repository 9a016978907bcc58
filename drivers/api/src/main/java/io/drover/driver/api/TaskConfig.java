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
 * @param logMaxFiles the task's {@code logs { max_files }}: a driver that rotates output keeps at most this many
 *     {@code <task>.stdout.N} files (Nomad's default 10)
 * @param logMaxFileSize {@code logs { max_file_size }} in bytes (Nomad's default 10 MiB)
 * @param mounts the host volumes to mount into the task, in the order written; empty unless the driver declares
 *     {@link Capabilities#mountConfigs()}
 * @param resources the task's {@code resources} block ({@link TaskResources#NONE} from the shorter constructors):
 *     what a driver that enforces limits enforces
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
        Path stderrPath,
        int logMaxFiles,
        long logMaxFileSize,
        java.util.List<MountConfig> mounts,
        TaskResources resources) {
    public static final int DEFAULT_LOG_MAX_FILES = 10;
    public static final long DEFAULT_LOG_MAX_FILE_SIZE = 10L << 20;

    public TaskConfig {
        config = Map.copyOf(config);
        env = Map.copyOf(env);
        mounts = mounts == null ? java.util.List.of() : java.util.List.copyOf(mounts);
        resources = resources == null ? TaskResources.NONE : resources;
        if (logMaxFiles < 1 || logMaxFileSize < 1) {
            throw new IllegalArgumentException("logMaxFiles and logMaxFileSize must be positive");
        }
    }

    /**
     * The {@code config} block read through the driver's schema: converted, defaults applied. The host has checked
     * the block before the job was accepted; what is left to fail here is a value known only now (an interpolated
     * {@code ${...}}).
     *
     * @throws io.drover.driver.api.schema.InvalidConfigException listing every problem
     */
    public io.drover.driver.api.schema.ConfigView config(io.drover.driver.api.schema.ConfigSchema schema) {
        return schema.view(config);
    }

    /** A run with no {@code resources} to enforce ({@link TaskResources#NONE}). */
    public TaskConfig(String taskId, String allocId, String jobId, String groupName, String taskName,
            Map<String, Object> config, Map<String, String> env, Path taskDir, Path allocDir, Path stdoutPath,
            Path stderrPath, int logMaxFiles, long logMaxFileSize, java.util.List<MountConfig> mounts) {
        this(taskId, allocId, jobId, groupName, taskName, config, env, taskDir, allocDir, stdoutPath, stderrPath,
                logMaxFiles, logMaxFileSize, mounts, TaskResources.NONE);
    }

    /** This run with {@code resources} instead of its own. */
    public TaskConfig withResources(TaskResources resources) {
        return new TaskConfig(taskId, allocId, jobId, groupName, taskName, config, env, taskDir, allocDir, stdoutPath,
                stderrPath, logMaxFiles, logMaxFileSize, mounts, resources);
    }

    /** A run that mounts nothing. */
    public TaskConfig(String taskId, String allocId, String jobId, String groupName, String taskName,
            Map<String, Object> config, Map<String, String> env, Path taskDir, Path allocDir, Path stdoutPath,
            Path stderrPath, int logMaxFiles, long logMaxFileSize) {
        this(taskId, allocId, jobId, groupName, taskName, config, env, taskDir, allocDir, stdoutPath, stderrPath,
                logMaxFiles, logMaxFileSize, java.util.List.of());
    }

    /** A run with Nomad's default log limits (10 files of 10 MiB). */
    public TaskConfig(String taskId, String allocId, String jobId, String groupName, String taskName,
            Map<String, Object> config, Map<String, String> env, Path taskDir, Path allocDir, Path stdoutPath,
            Path stderrPath) {
        this(taskId, allocId, jobId, groupName, taskName, config, env, taskDir, allocDir, stdoutPath, stderrPath,
                DEFAULT_LOG_MAX_FILES, DEFAULT_LOG_MAX_FILE_SIZE);
    }
}
