package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shim's {@code --pid-ns} and {@code --ipc-ns} ({@link Namespaces}), with real processes as root: the task is
 * PID 1 of its namespace and its {@code /proc} lists that namespace only, the host's mounts are untouched, a
 * forwarded signal the task does not handle is dropped by the kernel while SIGKILL ends the whole namespace, and
 * a second supervisor (a restarted agent) re-attaches and kills it.
 */
@ExtendWith(ProcessLeakCheck.class)
class PidNamespaceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("first", "second");

    @TempDir
    Path dir;

    @BeforeEach
    void root() {
        Assumptions.assumeTrue(TaskUser.effectiveUid().orElse(-1) == 0, "namespaces need root");
    }

    private SupervisedProcess sh(String script, Namespaces ns) throws SpawnException {
        return SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), dir,
                dir.resolve("out"), dir.resolve("err"), null, dir.resolve("status"), null, ns));
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private String out() throws Exception {
        return Files.readString(dir.resolve("out"));
    }

    @Test
    void theTaskIsPidOneAndItsProcListsOnlyTheNamespace() throws Exception {
        String hostMounts = Files.readString(Path.of("/proc/self/mountinfo"));
        SupervisedProcess p = sh("echo my pid is $$; sleep 100 & set -- /proc/[0-9]*; echo $@; kill $!",
                new Namespaces(true, false));
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        // sh and its sleep (the glob is the shell's own): the host's hundreds of processes are not there
        assertThat(out()).isEqualTo("my pid is 1\n/proc/1 /proc/2\n");
        assertThat(Files.readString(dir.resolve("status"))).startsWith("exit 0 ended ");
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).as("nothing propagated to the host")
                .isEqualTo(hostMounts);
    }

    @Test
    void withoutTheFlagsTheTaskSharesTheHostsNamespaces() throws Exception {
        SupervisedProcess p = sh("echo $$; readlink /proc/self/ns/pid /proc/self/ns/ipc", Namespaces.HOST);
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        List<String> lines = out().lines().toList();
        assertThat(lines.get(0)).isNotEqualTo("1");
        assertThat(lines.subList(1, 3)).containsExactly(Files.readSymbolicLink(Path.of("/proc/self/ns/pid"))
                .toString(), Files.readSymbolicLink(Path.of("/proc/self/ns/ipc")).toString());
    }

    @Test
    void ipcNsGivesAnIpcNamespaceOfItsOwnAndKeepsTheHostPids() throws Exception {
        SupervisedProcess p = sh("echo $$; readlink /proc/self/ns/ipc", new Namespaces(false, true));
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        List<String> lines = out().lines().toList();
        assertThat(lines.get(0)).isNotEqualTo("1");
        assertThat(lines.get(1)).isNotEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/ipc")).toString());
    }

    @Test
    void anUnhandledTermIsDroppedForPidOneAndSigkillEndsTheNamespaceWithItsTree() throws Exception {
        // the task (PID 1) has no TERM handler; its children leave its group (setsid), one ignores TERM. Each child
        // says it is ready itself, once its setsid (and trap) are done: a TERM sent before that reached it in the
        // task's group and ended it, and the task's wait then returned (exit 0, a flake seen in CI)
        SupervisedProcess p = sh("setsid sh -c 'trap \"\" TERM; echo > r1; exec sleep 1000' &"
                + " setsid sh -c 'echo > r2; exec sleep 1000' & wait", new Namespaces(true, false));
        Await.until("both children ready", WAIT,
                () -> Files.exists(dir.resolve("r1")) && Files.exists(dir.resolve("r2")));
        p.signal(15);
        // the kernel drops a TERM from outside for a namespace's init that does not catch it: still alive
        assertThat(p.onExit().toCompletableFuture().completeOnTimeout(null, 300, TimeUnit.MILLISECONDS).get())
                .isNull();
        p.signal(9);
        ExitResult e = exit(p);
        assertThat(e.signal()).isEqualTo(9);
        assertThat(p.lastKill().orElseThrow().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .clean()).isTrue();
        assertThat(Files.readString(dir.resolve("status"))).startsWith("signal 9 ended ");
    }

    @Test
    void aTermTrappingTaskGetsTheForwardedSignal() throws Exception {
        SupervisedProcess p = sh("trap 'exit 3' TERM; echo ready > ready; while :; do sleep 0.05; done",
                new Namespaces(true, true));
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        p.signal(15);
        assertThat(exit(p)).isEqualTo(ExitResult.code(3));
    }

    @Test
    void anotherSupervisorReattachesToAPrivateNamespaceTaskAndKillsIt() throws Exception {
        SupervisedProcess started = sh("sleep 1000 & echo ready > ready; wait", new Namespaces(true, true));
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        SupervisedProcess attached = SUPERVISORS.second().attach(started.pid(), started.startTime(), dir.resolve("status"));
        assertThat(attached.exitNow()).isEmpty();
        attached.signal(9);
        ExitResult e = exit(attached);
        assertThat(e.signal()).isEqualTo(9);
        assertThat(Files.readString(dir.resolve("status"))).startsWith("signal 9 ended ");
        assertThat(exit(started).signal()).isEqualTo(9);
        assertThat(attached.lastKill().orElseThrow().toCompletableFuture().get(WAIT.toMillis(),
                TimeUnit.MILLISECONDS).clean()).isTrue();
    }
}
