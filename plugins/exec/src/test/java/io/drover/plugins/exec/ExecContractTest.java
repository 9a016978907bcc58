package io.drover.plugins.exec;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.List;
import java.util.Map;

/** exec against the shared driver contract, with real chrooted processes; none may be left behind. */
class ExecContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver newDriver() throws Exception {
        return HealthyExecDriver.startOrSkip();
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
