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
     * In the host's PID namespace: with Nomad's default {@code pid_mode = "private"} the task is PID 1 of its
     * namespace, which the kernel shields from any signal it does not handle — a bare {@code sleep}, or a shell
     * signalled before its {@code trap} ran (the TCK signals right after the start) — so it would wait for SIGKILL, as
     * under Nomad. ExecPidModeTest covers the private mode.
     */
    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("command", "sleep", "args", List.of("1000"), "pid_mode", "host");
    }
}
