package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The processes of a run an earlier agent never recorded are found by their environment and killed; kept runs and
 * runs of another data_dir are left alone (docs/process-supervision.md, "Runs without a recorded handle").
 */
@ExtendWith(ProcessLeakCheck.class)
class UnrecordedRunsTest {
    @TempDir
    Path tmp;

    @Test
    void killsTheRunsUnderTheRootThatAreNotKeptWithTheirChildrenAndLeavesTheOthers() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("data/alloc"));
        Process lost = start("a1/main/1", root.resolve("a1/main"), "sleep 30 & wait"); // a shell and its child
        Process kept = start("a2/main/1", root.resolve("a2/main"), "exec sleep 30");
        Process other = start("a3/main/1", tmp.resolve("other-data/alloc/a3/main"), "exec sleep 30");
        try {
            awaitChild(lost);

            Map<String, List<Long>> killed = UnrecordedRuns.kill(root, Set.of("a2/main/1"));

            assertThat(killed).containsOnlyKeys("a1/main/1");
            assertThat(killed.get("a1/main/1")).hasSize(2).contains(lost.pid());
            assertThat(lost.waitFor(5, TimeUnit.SECONDS)).isTrue();
            assertThat(lost.exitValue()).as("SIGKILL").isEqualTo(137);
            assertThat(kept.isAlive()).as("a run whose handle is recorded").isTrue();
            assertThat(other.isAlive()).as("a run of another data_dir").isTrue();
        } finally {
            for (Process p : List.of(lost, kept, other)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    private static Process start(String runId, Path taskDir, String script) throws Exception {
        Files.createDirectories(taskDir);
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script);
        Map<String, String> env = pb.environment();
        env.putAll(ProcessLeakCheck.env());
        env.put(UnrecordedRuns.RUN_ID_VAR, runId);
        env.put(UnrecordedRuns.RUN_DIR_VAR, taskDir.toString());
        return pb.start();
    }

    /** Until the shell has forked its child (the child must be found too). */
    private static void awaitChild(Process p) {
        Await.until("child of " + p.pid() + " started", java.time.Duration.ofSeconds(10),
                () -> p.children().findAny().isPresent());
    }
}
