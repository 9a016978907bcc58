package io.drover.plugins.rawexec;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.TaskConfig;
import io.drover.process.TestTasks;
import io.drover.process.WallTimers;
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
        return TestTasks.task(root, taskId, config, extraEnv);
    }
}
