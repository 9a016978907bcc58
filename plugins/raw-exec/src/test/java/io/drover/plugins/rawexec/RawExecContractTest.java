package io.drover.plugins.rawexec;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.List;
import java.util.Map;

/** raw_exec against the shared driver contract, with real processes; none may be left behind. */
class RawExecContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver newDriver() throws Exception {
        return RawExecFixture.enabledDriver();
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return Map.of("command", "sh", "args", List.of("-c", "exit " + code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "sleep", "args", List.of("1000"));
    }
}
