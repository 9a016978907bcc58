package io.drover.plugins.rawexec;

import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskDriverContract;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** raw_exec against the shared driver contract, with real processes; none may be left behind. */
@ExtendWith(ProcessLeakCheck.class)
class RawExecContractTest extends TaskDriverContract {
    private static RawExecDriver driver;

    @TempDir
    Path dir;

    @BeforeAll
    static void init() throws Exception {
        driver = RawExecFixture.enabledDriver();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Override
    protected TaskDriver driver() {
        return driver;
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return Map.of("command", "sh", "args", List.of("-c", "exit " + code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "sleep", "args", List.of("1000"));
    }

    @Override
    protected TaskConfig task(String taskId, Map<String, Object> config) {
        return RawExecFixture.task(dir, taskId, config, Map.of());
    }
}
