package io.drover.plugins.java;

import io.drover.driver.api.TaskDriver;
import io.drover.process.ProcessDriverContract;
import java.util.Map;

/**
 * The java driver against the driver TCK, with real child JVMs (one per task the TCK starts, 20 at once in the
 * concurrency test); none may be left behind. {@code exitsWith(3)} is a class that calls System.exit(3).
 */
class JavaContractTest extends ProcessDriverContract {
    @Override
    protected TaskDriver createDriver() {
        return new JavaDriver();
    }

    /** 20 child JVMs at once, not 100: each takes ~40 MB and a second of CPU, on a shared 2-core machine. */
    @Override
    protected int concurrentStarts() {
        return 20;
    }

    @Override
    protected Map<String, Object> exitsWith(int code) {
        return JavaFixture.fixture("ExitWith", Integer.toString(code));
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        // the host's PID namespace: the TCK signals right after the start, and a JVM that is PID 1 of its own
        // namespace (the default as root) ignores a TERM that comes before it installed its handlers, as under Nomad
        // (JavaPidModeTest signals it once it runs)
        Map<String, Object> config = new java.util.HashMap<>(JavaFixture.fixture("Sleeps"));
        config.put("pid_mode", "host");
        return config;
    }
}
