package io.drover.plugins.rawexec;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskConfig;
import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Builds an enabled raw_exec driver and task configs laid out as the host lays them out. */
final class RawExecFixture {
    private RawExecFixture() {}

    static RawExecDriver enabledDriver() throws DriverException {
        RawExecDriver driver = new RawExecDriver();
        driver.init(new DriverContext(Map.of("enabled", true), new WallTimers(), "0.1.0"));
        return driver;
    }

    /** A task under {@code root/<alloc>/<task>} with logs in {@code root/<alloc>/alloc/logs}. */
    static TaskConfig task(Path root, String taskId, Map<String, Object> config, Map<String, String> extraEnv) {
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
