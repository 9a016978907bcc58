package io.drover.plugins.java;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.Map;

/**
 * The java driver against the shared driver contract, with real child JVMs (five: the contract starts one per
 * test that runs a task); none may be left behind. {@code exitsWith(3)} is a class that calls System.exit(3).
 */
class JavaContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver newDriver() throws Exception {
        return JavaFixture.driver();
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return JavaFixture.fixture("ExitWith", Integer.toString(code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return JavaFixture.fixture("Sleeps");
    }
}
