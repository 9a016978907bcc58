package io.drover.plugins.java;

import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskDriverContract;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The java driver against the shared driver contract, with real child JVMs (five: the contract starts one per
 * test that runs a task); none may be left behind. {@code exitsWith(3)} is a class that calls System.exit(3).
 */
@ExtendWith(ProcessLeakCheck.class)
class JavaContractTest extends TaskDriverContract {
    private static JavaDriver driver;

    @TempDir
    Path dir;

    @BeforeAll
    static void init() throws Exception {
        driver = JavaFixture.driver();
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
        return JavaFixture.fixture("ExitWith", Integer.toString(code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return JavaFixture.fixture("Sleeps");
    }

    @Override
    protected TaskConfig task(String taskId, Map<String, Object> config) {
        return TestTasks.task(dir, taskId, config, Map.of());
    }
}
