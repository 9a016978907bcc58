package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.process.TestTasks;
import io.drover.process.Await;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code TaskDriver.exec} in a running exec task (what a template's {@code change_mode = "script"} runs): the command
 * runs inside the task's isolation — its chroot (the task directory is {@code /}), user nobody, the task's
 * environment and work directory — reports its exit code, and is killed with its tree after its timeout; an ended
 * task refuses it. Real processes and namespaces; no process is left (ProcessLeakCheck). Runs only where the driver
 * is healthy.
 */
@ExtendWith(ProcessLeakCheck.class)
class ExecDriverExecTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @RegisterExtension
    static final ExecDriverFixture EXEC = new ExecDriverFixture();

    @TempDir
    Path dir;

    private String start(TaskConfig task) throws Exception {
        Files.createDirectories(task.allocDir().resolve("data"));
        return EXEC.driver().start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
    }

    private static ExitResult exec(String id, String script, Duration timeout) throws Exception {
        return EXEC.driver().exec(id, List.of("/bin/sh", "-c", script), timeout).toCompletableFuture()
                .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void anExecRunsInsideTheTasksChrootAsItsUserWithItsEnvironment() throws Exception {
        TaskConfig task = TestTasks.task(dir, "exec/1", Map.of("command", "/bin/sh", "args",
                List.of("-c", ": > /local/ready; exec sleep 1000"), "work_dir", "/local"), Map.of("GREETING", "hi"));
        String id = start(task);
        try {
            Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));
            assertThat(exec(id, "{ id -u; pwd; echo \"$GREETING\"; ls /alloc >/dev/null && echo alloc; } > out",
                    Duration.ofSeconds(10))).isEqualTo(ExitResult.code(0));
            assertThat(Files.readString(task.taskDir().resolve("local/out")))
                    .isEqualTo("65534\n/local\nhi\nalloc\n");
            assertThat(exec(id, "exit 7", Duration.ofSeconds(10))).isEqualTo(ExitResult.code(7));
        } finally {
            EXEC.driver().destroy(id);
        }
    }

    @Test
    void anExecPastItsTimeoutIsKilledWithItsTree() throws Exception {
        TaskConfig task = TestTasks.task(dir, "exec/2", Map.of("command", "/bin/sh", "args",
                List.of("-c", ": > /local/ready; exec sleep 1000"), "pid_mode", "host"), Map.of());
        String id = start(task);
        try {
            Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));
            assertThatThrownBy(() -> exec(id, "sleep 300 & echo $! > /local/child; wait", Duration.ofSeconds(1)))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(DriverException.class)
                    .hasMessage("timed out after 1s; killed");
            long child = Long.parseLong(Files.readString(task.taskDir().resolve("local/child")).strip());
            // the pid is the chroot's view, which is the host's with pid_mode = "host"
            Await.until("the script's child to be gone", WAIT,
                    () -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
        } finally {
            EXEC.driver().destroy(id);
        }
    }

    @Test
    void anEndedTaskRefusesAnExec() throws Exception {
        TaskConfig task = TestTasks.task(dir, "exec/3", Map.of("command", "/bin/true"), Map.of());
        String id = start(task);
        try {
            EXEC.driver().awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThatThrownBy(() -> exec(id, "true", Duration.ofSeconds(1))).cause()
                    .isInstanceOf(DriverException.class).hasMessage("task is not running");
        } finally {
            EXEC.driver().destroy(id);
        }
    }
}
