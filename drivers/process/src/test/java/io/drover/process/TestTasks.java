package io.drover.process;

import io.drover.driver.api.TaskConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Task configs laid out as the host lays them out, for the tests of drivers that spawn processes: the
 * environment carries {@link ProcessLeakCheck}'s marker and no PATH (the driver adds the agent's).
 */
public final class TestTasks {
    private TestTasks() {}

    /** A task under {@code root/alloc1/<task>} with logs in {@code root/alloc1/alloc/logs}. */
    public static TaskConfig task(Path root, String taskId, Map<String, Object> config, Map<String, String> extraEnv) {
        String name = "t" + Math.abs(taskId.hashCode());
        Path alloc = root.resolve("alloc1");
        Path taskDir = alloc.resolve(name);
        Path logs = alloc.resolve("alloc").resolve("logs");
        try {
            Files.createDirectories(taskDir);
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> env = ProcessLeakCheck.env();
        env.remove("PATH"); // the driver adds the agent's PATH
        env.put("NOMAD_TASK_NAME", name);
        env.putAll(extraEnv);
        return new TaskConfig(taskId, "alloc1", "job", "group", name, config, env, taskDir, alloc.resolve("alloc"),
                logs.resolve(name + ".stdout.0"), logs.resolve(name + ".stderr.0"));
    }
}
