package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep after a task was reaped must not reach the process that was handed the task's pid number: forces the
 * reuse by writing {@code /proc/sys/kernel/ns_last_pid} (root) so that an unrelated task, a session and group
 * leader like every supervised process, gets the reaped task's pid; then sweeps the reaped task, as the driver's
 * destroy does, and proves the unrelated task and the child in its session survive. (The corpus run's
 * batch_overload saw tasks die of such a SIGKILL.)
 */
@ExtendWith(ProcessLeakCheck.class)
class RecycledPidTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Path NS_LAST_PID = Path.of("/proc/sys/kernel/ns_last_pid");
    private static final int ATTEMPTS = 50;
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("test");

    @TempDir
    Path dir;

    @Test
    void theSweepOfAReapedTaskSparesTheUnrelatedTaskThatWasHandedItsPid() throws Exception {
        SupervisedProcess[] pair = reusedPid();
        SupervisedProcess task = pair[0];
        SupervisedProcess other = pair[1];
        try {
            Path ready = dir.resolve("other").resolve("ready");
            Await.until("the unrelated task's session child runs", WAIT, () -> Files.exists(ready));
            int child = Integer.parseInt(Files.readString(ready).trim());
            ProcTable.Proc before = ProcTable.read(child).orElseThrow();
            assertThat(before.sid()).as("the child is in the session numbered like the reaped task").isEqualTo(task.pid());

            KillReport report = task.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

            assertThat(report.killed()).as("nothing of the unrelated task is the reaped task's").isEmpty();
            assertThat(other.exitNow()).as("the unrelated task still runs").isEmpty();
            assertThat(alive(other.pid()).map(ProcTable.Proc::startTime)).contains(other.startTime());
            assertThat(alive(child).map(ProcTable.Proc::startTime))
                    .as("its session's child still runs").contains(before.startTime());
        } finally {
            other.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            ExitResult end = other.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(end.signal()).isEqualTo(9);
        }
    }

    /**
     * A task that ran and was reaped, and an unrelated task (a session and group leader) that got its pid: ns_last_pid
     * is set just before the second fork. Another process of the machine (or a thread of this JVM) may take the
     * number first; then both are undone and the attempt repeated with a new task.
     */
    private SupervisedProcess[] reusedPid() throws Exception {
        for (int i = 0; i < ATTEMPTS; i++) {
            SupervisedProcess task = spawn("task" + i, "exit 0");
            assertThat(task.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).exitCode())
                    .isZero();
            SupervisedProcess other;
            synchronized (RecycledPidTest.class) {
                Files.writeString(NS_LAST_PID, Integer.toString(task.pid() - 1));
                other = spawn("other", "sleep 1000 & echo $! > ready.tmp && mv ready.tmp ready; wait");
            }
            if (other.pid() == task.pid()) {
                return new SupervisedProcess[] {task, other};
            }
            other.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            other.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }
        throw new AssertionError("no task's pid could be handed to another in " + ATTEMPTS + " attempts");
    }

    private SupervisedProcess spawn(String name, String script) throws Exception {
        Path cwd = Files.createDirectories(dir.resolve(name));
        Files.deleteIfExists(cwd.resolve("ready"));
        return SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), cwd,
                cwd.resolve("out"), cwd.resolve("err")));
    }

    private static Optional<ProcTable.Proc> alive(int pid) {
        return ProcTable.read(pid).filter(p -> !p.zombie());
    }
}
