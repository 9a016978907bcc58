package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(ProcessLeakCheck.class)
class ProcessSupervisorTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("test");

    @TempDir
    Path dir;

    private SupervisedProcess sh(String script) throws SpawnException {
        return spawn("sh", List.of("-c", script), Map.of());
    }

    private SupervisedProcess spawn(String command, List<String> args, Map<String, String> extraEnv)
            throws SpawnException {
        Map<String, String> env = ProcessLeakCheck.env();
        env.putAll(extraEnv);
        return SUPERVISORS.first().spawn(new SpawnSpec(command, args, env, dir, dir.resolve("out"), dir.resolve("err")));
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private String read(String name) throws Exception {
        return Files.readString(dir.resolve(name));
    }

    private void awaitFile(String name) {
        Await.until(name, WAIT, () -> Files.exists(dir.resolve(name)));
    }

    @Test
    void reportsExitCodes() throws Exception {
        assertThat(exit(spawn("true", List.of(), Map.of()))).isEqualTo(ExitResult.code(0));
        assertThat(exit(sh("exit 3"))).isEqualTo(ExitResult.code(3));
        assertThat(exit(sh("exit 255"))).isEqualTo(ExitResult.code(255));
    }

    @Test
    void reportsDeathBySignalAs128PlusSignal() throws Exception {
        ExitResult killed = exit(sh("kill -9 $$"));
        assertThat(killed.exitCode()).isEqualTo(137);
        assertThat(killed.signal()).isEqualTo(9);
        ExitResult term = exit(sh("kill -TERM $$"));
        assertThat(term).isEqualTo(new ExitResult(143, 15, false, ""));
    }

    @Test
    void runsInItsOwnSessionAndGroup() throws Exception {
        SupervisedProcess p = sh(": > ready; exec sleep 1000");
        awaitFile("ready");
        ProcTable.Proc proc = ProcTable.read(p.pid()).orElseThrow();
        assertThat(proc.sid()).isEqualTo(p.pid());
        assertThat(proc.pgid()).isEqualTo(p.pid());
        p.signal(9);
        assertThat(exit(p).signal()).isEqualTo(9);
    }

    @Test
    void deliversSignalsByNumberToTheGroup() throws Exception {
        SupervisedProcess p = sh("trap 'echo USR1 >> got' USR1; trap 'echo HUP >> got' HUP;"
                + " trap 'echo TERM >> got; exit 7' TERM; : > ready; while :; do sleep 1000 & wait $!; done");
        awaitFile("ready");
        p.signal(10);
        Await.until("USR1 trapped", WAIT, () -> contains("got", "USR1"));
        p.signal(1);
        Await.until("HUP trapped", WAIT, () -> contains("got", "HUP"));
        p.signal(15);
        assertThat(exit(p)).isEqualTo(ExitResult.code(7));
        assertThat(read("got")).isEqualTo("USR1\nHUP\nTERM\n");
        p.signal(15); // exited: no-op
        // a signal that lands between the loop's fork and exec leaves a sleep behind in the group; the driver's
        // destroy sweeps such leftovers, as here
        assertThat(p.killTree().toCompletableFuture().get(10, TimeUnit.SECONDS).clean()).isTrue();
    }

    private boolean contains(String file, String text) {
        try {
            return Files.exists(dir.resolve(file)) && read(file).contains(text);
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void termIgnoringTaskOnlyEndsOnSigkill() throws Exception {
        SupervisedProcess p = sh("trap '' TERM; : > ready; while :; do sleep 1000 & wait $!; done");
        awaitFile("ready");
        p.signal(15);
        CompletableFuture<ExitResult> exit = p.onExit().toCompletableFuture();
        assertThatThrownBy(() -> exit.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        p.signal(9);
        assertThat(exit(p)).isEqualTo(ExitResult.signalled(9));
    }

    @Test
    void sigkillTakesTheWholeTreeIncludingASetsidGrandchild() throws Exception {
        SupervisedProcess p = sh("setsid sh -c 'echo $$ > gc.pid; exec sleep 1000' & sleep 1000 & : > ready; wait");
        awaitFile("ready");
        awaitFile("gc.pid");
        Await.until("gc pid written", WAIT, () -> contains("gc.pid", "\n"));
        int grandchild = Integer.parseInt(read("gc.pid").trim());
        Await.until("grandchild exec'd sleep", WAIT,
                () -> ProcTable.read(grandchild).map(g -> g.comm().equals("sleep")).orElse(false));
        assertThat(ProcTable.read(grandchild).orElseThrow().sid()).isNotEqualTo(p.pid());

        KillReport report = p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(exit(p)).isEqualTo(ExitResult.signalled(9));
        assertThat(report.clean()).isTrue();
        assertThat(report.killed()).extracting(ProcTable.Proc::pid).contains(p.pid(), grandchild);
        assertThat(ProcTable.read(grandchild).filter(g -> !g.zombie())).isEmpty();
        assertThat(ProcessLeakCheck.markedPids().stream()
                .filter(pid -> ProcTable.read(pid).map(q -> !q.zombie()).orElse(false))).isEmpty();
    }

    @Test
    void killTreeAfterExitRemovesWhatTheTaskLeftInItsGroup() throws Exception {
        SupervisedProcess p = sh("sleep 1000 & echo $! > bg.pid");
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        int bg = Integer.parseInt(read("bg.pid").trim());
        assertThat(ProcTable.read(bg)).isPresent();
        KillReport report = p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(report.killed()).extracting(ProcTable.Proc::pid).contains(bg);
        assertThat(report.clean()).isTrue();
        KillReport again = p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(again.killed()).isEmpty();
    }

    @Test
    void missingCommandFailsWithTheOsReason() {
        assertThatThrownBy(() -> spawn("nope", List.of(), Map.of())).isInstanceOf(SpawnException.class)
                .hasMessage("exec: \"nope\": No such file or directory");
        assertThatThrownBy(() -> spawn("./nope", List.of(), Map.of())).isInstanceOf(SpawnException.class)
                .hasMessage("exec: \"./nope\": No such file or directory");
    }

    @Test
    void notExecutableFailsWithTheOsReason() throws Exception {
        Path script = Files.writeString(dir.resolve("script.sh"), "#!/bin/sh\necho hi\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> spawn(script.toString(), List.of(), Map.of())).isInstanceOf(SpawnException.class)
                .hasMessage("exec: \"" + script + "\": Permission denied");
    }

    @Test
    void badWorkDirFailsWithTheOsReason() {
        Path missing = dir.resolve("missing");
        assertThatThrownBy(() -> SUPERVISORS.first().spawn(new SpawnSpec("true", List.of(), ProcessLeakCheck.env(), missing,
                dir.resolve("out"), dir.resolve("err")))).isInstanceOf(SpawnException.class)
                .hasMessage("chdir \"" + missing + "\": No such file or directory");
    }

    @Test
    void envWorkDirAndOutputsReachTheProcess() throws Exception {
        Path work = Files.createDirectory(dir.resolve("work"));
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("sh",
                List.of("-c", "echo \"$FOO\" \"${HOME-unset}\"; pwd; echo oops >&2; echo \"$0 $1\"", "zero", "a b"),
                merge(Map.of("FOO", "bar baz")), work, dir.resolve("out"), dir.resolve("err")));
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertThat(read("out")).isEqualTo("bar baz unset\n" + work + "\nzero a b\n");
        assertThat(read("err")).isEqualTo("oops\n");
        // appends, as a restarted task does
        assertThat(exit(sh("echo again"))).isEqualTo(ExitResult.code(0));
        assertThat(read("out")).endsWith("zero a b\nagain\n");
    }

    @Test
    void nonAsciiPathsAndArgsAreUtf8() throws Exception {
        Path work = Files.createDirectory(dir.resolve("répertoire ü"));
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", "pwd; echo \"$0\"", "ça"),
                ProcessLeakCheck.env(), work, dir.resolve("sortie é"), dir.resolve("err")));
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertThat(read("sortie é")).isEqualTo(work + "\nça\n");
    }

    @Test
    void noJvmDescriptorLeaksIntoTheTask() throws Exception {
        SupervisedProcess p = sh("ls /proc/$$/fd");
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertThat(Arrays.asList(read("out").trim().split("\\s+"))).containsExactlyInAnyOrder("0", "1", "2");
    }

    @Test
    void oneWatcherThreadServesManyConcurrentTasks() throws Exception {
        List<SupervisedProcess> ps = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            ps.add(sh("exit " + i));
        }
        for (int i = 0; i < 50; i++) {
            assertThat(exit(ps.get(i)).exitCode()).isEqualTo(i);
        }
        long reapers = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("drover-test-reaper")).count();
        assertThat(reapers).isEqualTo(1);
    }

    private static Map<String, String> merge(Map<String, String> extra) {
        Map<String, String> env = ProcessLeakCheck.env();
        env.putAll(extra);
        return env;
    }
}
