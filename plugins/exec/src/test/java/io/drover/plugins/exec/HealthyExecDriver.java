package io.drover.plugins.exec;

import io.drover.driver.api.DriverContext;
import io.drover.process.WallTimers;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * The exec driver as the tests need it: initialised with real timers and an empty plugin config, or the calling
 * test skipped with the driver's own health line (exec needs root, unshare, mount and chroot).
 */
final class HealthyExecDriver {
    private HealthyExecDriver() {}

    /** A new, initialised, healthy driver; the caller closes it. Skips the test (and closes it) otherwise. */
    static ExecDriver startOrSkip() throws Exception {
        ExecDriver driver = new ExecDriver();
        driver.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        if (!driver.health().isHealthy()) {
            String why = driver.health().description();
            driver.close();
            Assumptions.abort(why);
        }
        return driver;
    }
}
