package io.drover.plugins.exec;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.List;
import java.util.Map;

/** exec against the driver TCK, with real chrooted processes; none may be left behind. */
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
    protected TaskDriver createDriver() {
        return new ExecDriver();
    }

    @Override
    protected java.util.Optional<Map<String, Object>> ignoresTerminatingSignals() {
        return java.util.Optional.of(shellIgnoringSignals("/bin/sh", "/local/ignoring"));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "sleep", "args", List.of("1000"));
    }
}
