package io.drover.plugins.rawexec;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** raw_exec against the driver TCK, with real processes; none may be left behind. */
class RawExecContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver createDriver() {
        return new RawExecDriver();
    }

    @Override
    protected Map<String, Object> pluginConfig() {
        return Map.of("enabled", true);
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
    protected Optional<Map<String, Object>> ignoresTerminatingSignals() {
        return Optional.of(shellIgnoringSignals("sh", "ignoring"));
    }
}
