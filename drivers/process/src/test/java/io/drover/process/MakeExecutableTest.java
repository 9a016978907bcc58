package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import io.drover.process.MakeExecutable.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, part 1: a task's command written without execute bits is made executable as Nomad's executor does,
 * and nothing a task could plant in its directory makes the agent change a file outside it: a symbolic link (of
 * the file or of a folder on the way), a hard link, a FIFO. The outside file is root-owned 0600 (these tests run
 * as root here; as another user they check the same modes).
 */
@ExtendWith(ProcessLeakCheck.class)
class MakeExecutableTest {
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("make-executable");

    @TempDir
    Path root;
    private Path taskDir;
    private Path allocDir;
    private Path local;
    private Path secret;

    @BeforeEach
    void layOut() throws Exception {
        taskDir = Files.createDirectories(root.resolve("alloc1").resolve("t"));
        allocDir = Files.createDirectories(root.resolve("alloc1").resolve("alloc"));
        local = Files.createDirectories(taskDir.resolve("local"));
        Path vault = Files.createDirectories(root.resolve("vault"));
        secret = Files.writeString(vault.resolve("shadow"), "root only\n");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    }

    private List<Path> roots() {
        return List.of(taskDir, allocDir);
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aRenderedScriptWithoutPermsRunsAsARealProcess() throws Exception {
        Path script = Files.writeString(local.resolve("sleepy.sh"), "#!/bin/sh\necho slept\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(MakeExecutable.forCommand("local/sleepy.sh", null, taskDir, roots()))
                .isEqualTo(Outcome.MADE_EXECUTABLE);
        assertThat(mode(script)).isEqualTo("rwxr-xr-x");
        assertThat(MakeExecutable.forCommand("local/sleepy.sh", null, taskDir, roots()))
                .isEqualTo(Outcome.ALREADY_EXECUTABLE);

        Path out = taskDir.resolve("out");
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("local/sleepy.sh", List.of(), ProcessLeakCheck.env(),
                taskDir, out, taskDir.resolve("err")));
        assertThat(p.onExit().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(out)).isEqualTo("slept\n");
    }

    @Test
    void onlyTheMissingBitsAreAddedAndSetuidIsDropped() throws Exception {
        Path own = Files.writeString(allocDir.resolve("run.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rw--w----"));
        assertThat(MakeExecutable.ensure(own, roots())).isEqualTo(Outcome.MADE_EXECUTABLE);
        assertThat(mode(own)).isEqualTo("rwxrwxr-x");
    }

    @Test
    void aCommandOutsideTheTaskIsNeverTouched() throws Exception {
        assertThat(MakeExecutable.ensure(secret, roots())).isEqualTo(Outcome.OUTSIDE);
        assertThat(MakeExecutable.forCommand("sh", "/usr/bin:/bin", taskDir, roots())).isEqualTo(Outcome.OUTSIDE);
        // a relative path climbing out is outside after normalisation
        assertThat(MakeExecutable.forCommand("../../vault/shadow", null, taskDir, roots())).isEqualTo(Outcome.OUTSIDE);
        assertThat(MakeExecutable.forCommand("local/none.sh", null, taskDir, roots())).isEqualTo(Outcome.MISSING);
        assertThat(mode(secret)).isEqualTo("rw-------");
    }

    @Test
    void aPlantedSymbolicLinkToARootFileIsLeftAlone() throws Exception {
        Path link = Files.createSymbolicLink(local.resolve("x.sh"), secret);
        assertThat(MakeExecutable.ensure(link, roots())).isEqualTo(Outcome.REFUSED);
        assertThat(mode(secret)).isEqualTo("rw-------");
    }

    @Test
    void aPlantedLinkedFolderOnTheWayIsNotFollowed() throws Exception {
        Files.createSymbolicLink(local.resolve("bin"), secret.getParent());
        assertThat(MakeExecutable.forCommand("local/bin/shadow", null, taskDir, roots())).isEqualTo(Outcome.REFUSED);
        assertThat(mode(secret)).isEqualTo("rw-------");
        // the task directory itself replaced by a link (the root is opened O_NOFOLLOW too)
        Path moved = Files.move(local, taskDir.resolve("elsewhere"));
        Files.createSymbolicLink(local, secret.getParent());
        assertThat(MakeExecutable.ensure(local.resolve("shadow"), List.of(local))).isEqualTo(Outcome.REFUSED);
        assertThat(mode(secret)).isEqualTo("rw-------");
        assertThat(moved).isDirectory();
    }

    @Test
    void aPlantedHardLinkToARootFileIsRefused() throws Exception {
        // the test dir and the root file are on the same file system, as a task's local/ and a host file could be
        Path hard = Files.createLink(local.resolve("h.sh"), secret);
        assertThat(Files.getAttribute(secret, "unix:nlink")).isEqualTo(2);
        assertThat(MakeExecutable.ensure(hard, roots())).isEqualTo(Outcome.REFUSED);
        assertThat(mode(secret)).isEqualTo("rw-------");
    }

    @Test
    void aFifoOrAFolderIsRefusedWithoutBlocking() throws Exception {
        Path fifo = local.resolve("f.sh");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
        // nobody writes it: an open without O_NONBLOCK would hang here
        assertThat(MakeExecutable.ensure(fifo, roots())).isEqualTo(Outcome.REFUSED);
        assertThat(MakeExecutable.ensure(Files.createDirectories(local.resolve("d")), roots()))
                .isEqualTo(Outcome.REFUSED);
        assertThat(MakeExecutable.forCommand("./local", null, taskDir, roots())).isEqualTo(Outcome.REFUSED);
    }

}
