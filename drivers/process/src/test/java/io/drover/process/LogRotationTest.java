package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(ProcessLeakCheck.class)
class LogRotationTest {
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("logs-test");

    @TempDir
    Path dir;

    private SupervisedProcess sh(String script, LogRotation rotation) throws SpawnException {
        return SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), dir,
                dir.resolve("t.stdout.0"), dir.resolve("t.stderr.0"), rotation));
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private List<Path> files(String base) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().startsWith(base + "."))
                    .sorted((a, b) -> Integer.compare(index(a), index(b))).toList();
        }
    }

    private static int index(Path p) {
        String n = p.getFileName().toString();
        return Integer.parseInt(n.substring(n.lastIndexOf('.') + 1));
    }

    @Test
    void outputGoesThroughPipesAndIsOnDiskWhenTheExitIsReported() throws Exception {
        SupervisedProcess p = sh("echo out; echo err >&2; exit 3", LogRotation.nomadDefaults());
        assertThat(exit(p)).isEqualTo(ExitResult.code(3));
        assertThat(Files.readString(dir.resolve("t.stdout.0"))).isEqualTo("out\n");
        assertThat(Files.readString(dir.resolve("t.stderr.0"))).isEqualTo("err\n");
        assertThat(p.droppedOutputBytes()).isZero();
    }

    @Test
    void rotatesAtMaxFileSizeAndKeepsMaxFiles() throws Exception {
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            expected.append(String.valueOf((char) ('a' + i)).repeat(999)).append('\n');
        }
        String script = "for c in a b c d e f g h i j; do printf \"%0999d\\n\" 0 | tr 0 $c; done";
        SupervisedProcess p = sh(script, new LogRotation(3, 2500, 1 << 20));
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        List<Path> kept = files("t.stdout");
        assertThat(kept).hasSize(3);
        StringBuilder tail = new StringBuilder();
        for (Path f : kept) {
            assertThat(Files.size(f)).isLessThanOrEqualTo(2500);
            tail.append(Files.readString(f));
        }
        assertThat(index(kept.get(2))).isEqualTo(3); // 10,000 bytes in files of 2,500: .0 to .3, .0 removed
        assertThat(expected.toString()).endsWith(tail.toString());
        assertThat(tail.length()).isEqualTo(7500);
    }

    @Test
    void aRestartContinuesTheHighestFile() throws Exception {
        assertThat(exit(sh("echo one", new LogRotation(5, 1000, 1 << 20)))).isEqualTo(ExitResult.code(0));
        Files.writeString(dir.resolve("t.stdout.2"), "older run\n");
        assertThat(exit(sh("echo two", new LogRotation(5, 1000, 1 << 20)))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(dir.resolve("t.stdout.2"))).isEqualTo("older run\ntwo\n");
    }

    @Test
    void aFullBufferDropsAndCountsInsteadOfBlockingTheTask() throws Exception {
        // 200 KB through a 16-byte buffer: the pipe's reads do not fit, are dropped and counted; the task is
        // never blocked on a full pipe, so it exits
        SupervisedProcess p = sh("head -c 200000 /dev/zero", new LogRotation(2, 1 << 20, 16));
        assertThat(exit(p).exitCode()).isZero();
        long written = Files.size(dir.resolve("t.stdout.0"));
        assertThat(p.droppedOutputBytes()).isPositive();
        assertThat(written + p.droppedOutputBytes()).isEqualTo(200000);
        assertThat(exit(p).message()).endsWith(" bytes of output dropped (disk too slow)");
    }

    @Test
    void outputOfADescendantThatOutlivesTheTaskIsStillCollected() throws Exception {
        SupervisedProcess p = sh("(echo late; : > ready2; exec sleep 1000) & : > ready", LogRotation.nomadDefaults());
        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        Await.until("late line", Duration.ofSeconds(10), () -> {
            try {
                return Files.readString(dir.resolve("t.stdout.0")).equals("late\n");
            } catch (Exception e) {
                return false;
            }
        });
        assertThat(p.killTree().toCompletableFuture().get(10, TimeUnit.SECONDS).clean()).isTrue();
    }
}
