package io.drover.plugins.rawexec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.process.Await;
import io.drover.process.ProcTable;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RawExecDriver#recover} from the handle {@code start} returned, by a second driver instance standing for
 * a restarted agent (the first stays this JVM's parent of the shims, so nothing becomes a zombie). The real
 * agent crash is framework/core's CrashRecoveryTest.
 */
@ExtendWith(ProcessLeakCheck.class)
class RawExecRecoverTest {
    private static final AtomicInteger IDS = new AtomicInteger();
    private RawExecDriver first;
    private RawExecDriver second;

    @TempDir
    Path dir;

    @BeforeEach
    void init() throws Exception {
        first = RawExecFixture.enabledDriver();
        second = RawExecFixture.enabledDriver();
    }

    @AfterEach
    void close() {
        first.close();
        second.close();
    }

    private TaskHandle start(String script) throws Exception {
        TaskConfig task = RawExecFixture.task(dir, "recover/" + IDS.incrementAndGet(),
                Map.of("command", "sh", "args", List.of("-c", script)), Map.of());
        return first.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static ExitResult exit(RawExecDriver d, String id) throws Exception {
        return d.awaitExit(id).toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void declaresRecoverAndItsHandleCarriesWhatRecoveryNeeds() throws Exception {
        assertThat(first.capabilities().recover()).isTrue();
        TaskHandle h = start("exit 0");
        int pid = Integer.parseInt(h.state().get("pid"));
        assertThat(h.state()).containsEntry("pgid", h.state().get("pid")).containsEntry("sid", h.state().get("pid"))
                .containsKeys("start_time", "status_file");
        exit(first, h.taskId());
        // the code, then when the shim reaped the task (unix nanoseconds)
        assertThat(Files.readString(Path.of(h.state().get("status_file")))).matches("exit 0 ended [0-9]{19}\n");
        assertThat(pid).isPositive();
    }

    @Test
    void aTaskThatEndedIsRecoveredWithItsTrueExitCodeOrSignal() throws Exception {
        TaskHandle seven = start("exit 7");
        TaskHandle usr1 = start("kill -USR1 $$");
        assertThat(exit(first, seven.taskId())).isEqualTo(ExitResult.code(7));
        assertThat(exit(first, usr1.taskId())).isEqualTo(ExitResult.signalled(10));
        assertThat(second.recover(seven)).isEqualTo(seven);
        assertThat(exit(second, seven.taskId())).isEqualTo(ExitResult.code(7));
        second.recover(usr1);
        assertThat(exit(second, usr1.taskId())).isEqualTo(new ExitResult(138, 10, false, ""));
        assertThat(second.inspect(seven.taskId()).state()).isEqualTo(TaskStatus.State.EXITED);
    }

    @Test
    void aRunningTaskIsReattachedSignalledByNameAndItsExitRead() throws Exception {
        TaskHandle h = start("echo ready > ready; exec sleep 1000");
        Await.until("ready", java.time.Duration.ofSeconds(10), () -> Files.exists(dir.resolve("alloc1")
                .resolve("t" + Math.abs(h.taskId().hashCode())).resolve("ready")));
        second.recover(h);
        assertThat(second.inspect(h.taskId()).state()).isEqualTo(TaskStatus.State.RUNNING);
        second.signal(h.taskId(), "SIGUSR2");
        assertThat(exit(second, h.taskId())).isEqualTo(ExitResult.signalled(12));
        assertThat(exit(first, h.taskId())).isEqualTo(ExitResult.signalled(12));
    }

    @Test
    void aRecycledPidIsNotRecoveredAndNotSignalled() throws Exception {
        TaskHandle h = start("exec sleep 1000");
        Map<String, String> state = new HashMap<>(h.state());
        state.put("start_time", Long.toString(Long.parseLong(state.get("start_time")) + 1));
        TaskHandle wrong = new TaskHandle(h.taskId(), h.driver(), h.startedAtNanos(), state);
        assertThatThrownBy(() -> second.recover(wrong)).isInstanceOf(TaskNotFoundException.class)
                .hasMessageContaining("now belongs to another process")
                .hasMessageContaining("recorded no exit status");
        int pid = Integer.parseInt(h.state().get("pid"));
        assertThat(ProcTable.read(pid)).isPresent();
        assertThat(first.inspect(h.taskId()).state()).isEqualTo(TaskStatus.State.RUNNING);
        first.signal(h.taskId(), "SIGKILL");
        assertThat(exit(first, h.taskId()).signal()).isEqualTo(9);
    }

    @Test
    void aGoneTaskWithoutAStatusFileIsNotFoundWithTheReason() throws Exception {
        TaskHandle h = start("exit 3");
        exit(first, h.taskId());
        Files.delete(Path.of(h.state().get("status_file")));
        assertThatThrownBy(() -> second.recover(h)).isInstanceOf(TaskNotFoundException.class)
                .hasMessageContaining("task " + h.taskId() + " not found: process " + h.state().get("pid"))
                .hasMessageContaining("recorded no exit status");
        assertThatThrownBy(() -> second.recover(new TaskHandle("old", "raw_exec", 0, Map.of("pid", "1"))))
                .isInstanceOf(TaskNotFoundException.class).hasMessageContaining("its handle lacks");
    }
}
