package io.drover.process;

import io.drover.driver.api.TaskConfig;
import io.drover.driver.tck.DriverTck;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The driver TCK ({@link DriverTck}) for drivers that spawn real processes (raw_exec, exec, java): tasks laid out
 * as the host lays them out ({@link TestTasks}, whose environment carries the leak marker), and no process may be
 * left after any test ({@link ProcessLeakCheck}). A driver's test extends it and says how to make its driver and
 * its task configs.
 */
@ExtendWith(ProcessLeakCheck.class)
public abstract class ProcessDriverContract extends DriverTck {
    @Override
    protected TaskConfig task(String taskId, Map<String, Object> config) {
        return TestTasks.task(tckDir, taskId, config, Map.of());
    }

    /**
     * A task that ignores SIGTERM and SIGINT (only SIGKILL ends it) and then creates {@code sign}, which
     * {@link #awaitSignalsIgnored} polls for in the task dir or its {@code local} dir ({@code "ignoring"} from the
     * task dir as working dir; {@code "/local/ignoring"} inside exec's chroot).
     */
    protected static Map<String, Object> shellIgnoringSignals(String shell, String sign) {
        return Map.of("command", shell, "args",
                java.util.List.of("-c", "trap '' TERM INT; : > " + sign + "; while :; do sleep 1; done"));
    }

    @Override
    protected void awaitSignalsIgnored(TaskConfig task) {
        java.nio.file.Path sign = task.taskDir().resolve("ignoring");
        java.nio.file.Path local = task.taskDir().resolve("local").resolve("ignoring");
        long deadline = System.nanoTime() + java.time.Duration.ofSeconds(20).toNanos();
        while (!java.nio.file.Files.exists(sign) && !java.nio.file.Files.exists(local)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the task did not create " + sign + " within 20 s");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }
}
