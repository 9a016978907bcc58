package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ExitResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * As root (or with CAP_SYS_NICE) the reaper and tree-killer threads run at nice -10 (issue 18); without the
 * privilege they keep nice 0. Either way a task spawned by the supervisor runs at nice 0: the raised threads
 * never spawn, and the priority of the thread that does is not raised.
 */
@ExtendWith(ProcessLeakCheck.class)
class ThreadNiceTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    @Test
    void theReaperAndKillerAreRaisedWhereAllowedAndTheTaskIsNot() throws Exception {
        int expected = mayRaise() ? ThreadNice.RAISED : 0;
        try (ProcessSupervisor supervisor = ProcessSupervisor.create("nicetest")) {
            SupervisedProcess p = supervisor.spawn(new SpawnSpec("sh", List.of("-c", ": > ready; exec sleep 1000"),
                    ProcessLeakCheck.env(), dir, dir.resolve("out"), dir.resolve("err")));
            Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
            Await.until("the reaper at nice " + expected, WAIT, () -> threadNices("drover-nicetest").contains(expected));
            Await.until("a tree killer at nice " + expected, WAIT,
                    () -> threadNices("drover-tree-kil").contains(expected));
            assertThat(niceOf(Path.of("/proc/" + p.pid() + "/stat"))).as("the task's nice").isZero();
            p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                    .isEqualTo(ExitResult.signalled(9));
        }
    }

    private static boolean mayRaise() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("CapEff:")) {
                return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & (1L << 23)) != 0;
            }
        }
        return false;
    }

    /** The nice values of this JVM's threads whose kernel name starts with {@code prefix}. */
    private static List<Integer> threadNices(String prefix) {
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        List<Integer> out = new java.util.ArrayList<>();
        for (java.io.File t : tasks == null ? new java.io.File[0] : tasks) {
            try {
                if (Files.readString(t.toPath().resolve("comm")).startsWith(prefix)) {
                    out.add(niceOf(t.toPath().resolve("stat")));
                }
            } catch (IOException e) {
                // the thread ended
            }
        }
        return out;
    }

    private static int niceOf(Path stat) throws IOException {
        String s = Files.readString(stat);
        return Integer.parseInt(s.substring(s.lastIndexOf(')') + 2).trim().split(" ")[19 - 3]);
    }
}
