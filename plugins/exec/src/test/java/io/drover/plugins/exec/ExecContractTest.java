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

    /**
     * With Nomad's default {@code pid_mode = "private"} the task is PID 1 of its namespace, which the kernel shields
     * from any signal it does not handle: a long-running task that a terminating signal ends must catch it, as
     * under Nomad (a bare {@code sleep} would wait for SIGKILL; ExecPidModeTest).
     */
    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "/bin/sh", "args", List.of("-c",
                "trap 'exit 143' TERM INT HUP; while :; do sleep 1000 & wait $!; done"));
    }
}
