package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.process.Await;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import io.drover.process.WallTimers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an agent restart needs of exec, by a second driver instance standing for the restarted agent (the first
 * stays this JVM's parent of the shims): re-attach to a chrooted task and signal it; kill a run whose handle was
 * never recorded, found by its host-path markers that the driver must not rewrite. Gated like ExecDriverTest.
 */
@ExtendWith(ProcessLeakCheck.class)
class ExecRecoverTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private ExecDriver first;
    private ExecDriver second;

    @TempDir
    Path dir;

    @BeforeEach
    void init() throws Exception {
        first = new ExecDriver();
        first.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        Assumptions.assumeTrue(first.health().isHealthy(), first.health().description());
        second = new ExecDriver();
        second.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
    }

    @AfterEach
    void close() {
        if (first != null) {
            first.close();
        }
        if (second != null) {
            second.close();
        }
    }

    private TaskConfig trapping(String id) {
        return TestTasks.task(dir, id, Map.of("command", "/bin/sh", "args", List.of("-c",
                "trap 'exit 5' TERM; : > /local/ready; while :; do sleep 1000 & wait $!; done")), Map.of());
    }

    @Test
    void aRunningTaskIsReattachedAndSignalledThroughTheNewDriver() throws Exception {
        TaskConfig task = trapping("exec-recover/1");
        TaskHandle handle = first.start(task).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));

        assertThat(second.recover(handle)).isEqualTo(handle);
        second.signal(handle.taskId(), "SIGTERM");
        assertThat(second.awaitExit(handle.taskId()).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo(ExitResult.code(5));
        first.destroy(handle.taskId());
        second.destroy(handle.taskId());
    }

    @Test
    void anUnrecordedRunIsFoundByItsHostTaskDirAndKilled() throws Exception {
        TaskConfig task = trapping("exec-recover/2");
        TaskHandle handle = first.start(task).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));

        assertThat(second.killUnrecordedRuns(dir, Set.of("some-other-run"))).containsExactly(handle.taskId());
        ExitResult exit = first.awaitExit(handle.taskId()).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(exit.signal()).isEqualTo(9);
        // the second agent's kill: the first, which ran the task, did not send it
        assertThat(exit.message()).startsWith("killed by a SIGKILL the agent did not send; ");
        first.destroy(handle.taskId());
    }
}
