package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 2: a task plants an entry where the agent's log writer (root) will open a log file — a
 * symbolic link to a root-owned 0600 file, a hard link to it, a FIFO — or replaces the log folder by a link,
 * then prints past {@code max_file_size} so that rotation opens the planted name. Real shell tasks under the
 * shim, laid out as the host lays them out ({@code alloc/logs} in the group's shared dir). The target must be
 * unchanged, and the output must land in a fresh regular file (or, through a replaced folder, be dropped and
 * counted).
 */
@ExtendWith(ProcessLeakCheck.class)
class PlantedLogLinkTest {
    private static final String SECRET = "root only\n";
    private static final LogRotation SMALL = new LogRotation(5, 1000, 1 << 20);
    /** 30 lines of 100 bytes: 3,000 bytes, so .0, .1 and .2 are written. */
    private static final String PRINT = "i=0; while [ $i -lt 30 ]; do printf '%099d\\n' $i; i=$((i+1)); done";

    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("planted-links");

    @TempDir
    Path root;
    private Path taskDir;
    private Path logs;
    private Path secret;

    @BeforeEach
    void layOut() throws Exception {
        Path alloc = root.resolve("alloc1");
        taskDir = Files.createDirectories(alloc.resolve("t"));
        logs = Files.createDirectories(alloc.resolve("alloc").resolve("logs"));
        Path vault = Files.createDirectories(root.resolve("vault"));
        secret = Files.writeString(vault.resolve("shadow"), SECRET);
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
    }

    private SupervisedProcess sh(String script) throws SpawnException {
        return SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), taskDir,
                logs.resolve("t.stdout.0"), logs.resolve("t.stderr.0"), SMALL, taskDir.resolve(".drover-exit")));
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(20, TimeUnit.SECONDS);
    }

    /** The regular stdout files' bytes in index order; fails on a link or anything else. */
    private String stdoutFiles() throws Exception {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> s = Files.list(logs)) {
            for (Path f : s.filter(p -> p.getFileName().toString().startsWith("t.stdout."))
                    .sorted((a, b) -> Integer.compare(index(a), index(b))).toList()) {
                assertThat(Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)).as(f.toString()).isTrue();
                assertThat((Integer) Files.getAttribute(f, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).isEqualTo(1);
                all.append(Files.readString(f));
            }
        }
        return all.toString();
    }

    private static int index(Path p) {
        String n = p.getFileName().toString();
        return Integer.parseInt(n.substring(n.lastIndexOf('.') + 1));
    }

    private static String printed() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 30; i++) {
            b.append(String.format("%099d\n", i));
        }
        return b.toString();
    }

    private void assertSecretUntouched() throws Exception {
        assertThat(Files.readString(secret)).isEqualTo(SECRET);
        assertThat(Files.getPosixFilePermissions(secret)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aSymlinkPlantedAtTheNextRotationIndexIsReplacedNotWrittenThrough() throws Exception {
        SupervisedProcess p = sh("ln -s " + secret + " " + logs.resolve("t.stdout.1") + " && " + PRINT);
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertSecretUntouched();
        assertThat(stdoutFiles()).isEqualTo(printed());
        assertThat(p.droppedOutputBytes()).isZero();
    }

    @Test
    void aSymlinkPlantedAsTheFirstFileBeforeTheTaskStartsIsReplaced() throws Exception {
        // e.g. by a prestart task of the same allocation
        Files.createSymbolicLink(logs.resolve("t.stdout.0"), secret);
        SupervisedProcess p = sh(PRINT);
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertSecretUntouched();
        assertThat(stdoutFiles()).isEqualTo(printed());
    }

    @Test
    void aHardLinkPlantedAtTheNextIndexIsReplaced() throws Exception {
        SupervisedProcess p = sh("ln " + secret + " " + logs.resolve("t.stdout.1") + " && " + PRINT);
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertSecretUntouched();
        assertThat(stdoutFiles()).isEqualTo(printed());
    }

    @Test
    void aFifoPlantedAtTheNextIndexNeitherBlocksTheWriterNorTakesTheOutput() throws Exception {
        SupervisedProcess p = sh("mkfifo " + logs.resolve("t.stdout.1") + " && " + PRINT);
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertThat(stdoutFiles()).isEqualTo(printed());
    }

    @Test
    void aLogFolderReplacedByALinkIsNotWrittenThroughAndTheOutputIsCountedAsDropped() throws Exception {
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        SupervisedProcess p = sh("printf '%0999d\\n' 0 && mv " + logs + " " + logs + ".old && ln -s " + elsewhere
                + " " + logs + " && " + PRINT);
        assertThat(exit(p).exitCode()).isZero();
        try (Stream<Path> s = Files.list(elsewhere)) {
            assertThat(s.toList()).isEmpty();
        }
        // at least everything after the first line (.0 was opened before the swap); a read that held the first
        // line too is counted whole
        assertThat(p.droppedOutputBytes()).isBetween(3000L, 4000L);
        assertThat(exit(p).message()).endsWith(" bytes of output dropped (disk too slow)");
    }

    @Test
    void aSharedDirReplacedByALinkIsNotWrittenThrough() throws Exception {
        Path shared = logs.getParent();
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere").resolve("logs"));
        SupervisedProcess p = sh("printf '%0999d\\n' 0 && mv " + shared + " " + shared + ".old && ln -s "
                + elsewhere.getParent() + " " + shared + " && " + PRINT);
        assertThat(exit(p).exitCode()).isZero();
        try (Stream<Path> s = Files.list(elsewhere)) {
            assertThat(s.toList()).isEmpty();
        }
        // at least everything after the first line (.0 was opened before the swap); a read that held the first
        // line too is counted whole
        assertThat(p.droppedOutputBytes()).isBetween(3000L, 4000L);
        assertThat(exit(p).message()).endsWith(" bytes of output dropped (disk too slow)");
    }
}
