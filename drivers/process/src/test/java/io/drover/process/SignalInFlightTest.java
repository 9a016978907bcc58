package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18: the kill_signal of a task, sent by an engine thread that may be descheduled inside kill(2), must not hold
 * up that task's SIGKILL on the timer thread; and the process is not reaped (its pid not freed for reuse) while such
 * a signal is between its check and its kill(2). The engine thread is held there with a latch.
 */
@ExtendWith(ProcessLeakCheck.class)
class SignalInFlightTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void sigkillLandsWhileAnotherThreadsKillSignalIsInFlightAndTheReapWaitsForIt() throws Exception {
        try (ProcessSupervisor supervisor = ProcessSupervisor.create("inflight")) {
            SupervisedProcess p = supervisor.spawn(new SpawnSpec("sh",
                    List.of("-c", "trap '' TERM; : > ready; while :; do sleep 0.05; done"), ProcessLeakCheck.env(),
                    dir, dir.resolve("out"), dir.resolve("err"), null, dir.resolve("status")));
            Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
            CountDownLatch inKill = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            supervisor.beforeKillGroup = signal -> {
                if (signal == 15) {
                    inKill.countDown();
                    try {
                        release.await(3 * WAIT.toMillis(), TimeUnit.MILLISECONDS); // longer than any wait below
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            };
            try {
                heldKillSignal(p, inKill, release);
            } finally {
                release.countDown();
                supervisor.beforeKillGroup = null;
                p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    private static void heldKillSignal(SupervisedProcess p, CountDownLatch inKill, CountDownLatch release)
            throws Exception {
        CompletableFuture<Void> term = CompletableFuture.runAsync(() -> p.signal(15)); // the engine thread
        assertThat(inKill.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).as("SIGTERM under way").isTrue();

        // the timer thread's SIGKILL while the SIGTERM is held inside its kill(2)
        CompletableFuture<Void> kill = CompletableFuture.runAsync(() -> p.signal(9));
        kill.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        // the task died (under the shim: the shim ends once its task is dead), yet it is not reaped while the
        // SIGTERM is in flight: the exit is not reported, the shim's pid stays a zombie of this JVM
        Await.until("the shim a zombie", WAIT, () -> state(p.pid()) == 'Z');
        assertThat(p.onExit().toCompletableFuture().isDone()).as("reaped under an in-flight signal").isFalse();

        release.countDown();
        term.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        ExitResult exit = p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(exit.signal()).isEqualTo(9);
        assertThat(Files.exists(Path.of("/proc/" + p.pid()))).as("reaped").isFalse();
    }

    /** The state letter of /proc/PID/stat, '?' when gone. */
    private static char state(int pid) {
        return ProcTable.read(pid).map(ProcTable.Proc::state).orElse('?');
    }
}
