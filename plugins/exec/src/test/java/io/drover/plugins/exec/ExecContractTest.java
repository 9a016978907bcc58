package io.drover.plugins.exec;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import io.drover.process.WallTimers;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/** exec against the shared driver contract, with real chrooted processes; none may be left behind. */
class ExecContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver newDriver() throws Exception {
        ExecDriver driver = new ExecDriver();
        driver.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        Assumptions.assumeTrue(driver.health().isHealthy(), driver.health().description());
        return driver;
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return Map.of("command", "/bin/sh", "args", List.of("-c", "exit " + code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "sleep", "args", List.of("1000"));
    }
}
