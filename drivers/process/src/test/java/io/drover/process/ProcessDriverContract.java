package io.drover.process;

import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskDriverContract;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver contract for drivers that spawn real processes (raw_exec, java): one driver per test class, made by
 * {@link #newDriver()} before the first test and closed after the last; tasks laid out under a temp dir as the
 * host lays them out ({@link TestTasks}); no process may be left after any test ({@link ProcessLeakCheck}).
 * A driver's test extends it and says how to make its driver and its two task configs.
 */
@ExtendWith(ProcessLeakCheck.class)
public abstract class ProcessDriverContract extends TaskDriverContract {
    /** The open driver of each concrete test class (JUnit may run classes in one JVM, one after another). */
    private static final Map<Class<?>, TaskDriver> DRIVERS = new ConcurrentHashMap<>();

    @TempDir
    protected Path dir;

    /** A new, initialised driver, as the agent makes one. */
    protected abstract TaskDriver newDriver() throws Exception;

    @BeforeEach
    final void openDriver() throws Exception {
        if (!DRIVERS.containsKey(getClass())) {
            DRIVERS.put(getClass(), newDriver());
        }
    }

    @AfterAll
    static void closeDriver(TestInfo info) {
        TaskDriver driver = DRIVERS.remove(info.getTestClass().orElseThrow());
        if (driver != null) {
            driver.close();
        }
    }

    @Override
    protected final TaskDriver driver() {
        return DRIVERS.get(getClass());
    }

    @Override
    protected TaskConfig task(String taskId, Map<String, Object> config) {
        return TestTasks.task(dir, taskId, config, Map.of());
    }
}
