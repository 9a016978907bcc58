package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Proves an end-to-end run left no process behind: no live process has its working directory under the run's
 * data dir (every task runs in its task dir there, and descendants inherit it, even after {@code setsid}), and
 * the test JVM has no zombie child. Processes die asynchronously after SIGKILL: waits up to 5 s.
 */
final class NoProcessLeft {
    private NoProcessLeft() {}

    /**
     * After a test: closes every agent it started, then fails naming any process left under {@code dir} — after
     * killing them, so that they do not leak into the next test.
     */
    static void closeAndAssertNone(List<AgentProcess> agents, Path dir) throws InterruptedException {
        for (AgentProcess a : agents) {
            a.close();
        }
        List<String> left = under(dir);
        for (String p : left) {
            ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly);
        }
        org.assertj.core.api.Assertions.assertThat(left).as("processes left").isEmpty();
    }

    static List<String> under(Path dataDir) {
        Path root = dataDir.toAbsolutePath().normalize();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<String> found = scan(root);
        while (!found.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(10_000_000);
            found = scan(root);
        }
        return found;
    }

    private static List<String> scan(Path root) {
        List<String> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try {
                    String stat = Files.readString(proc.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    boolean zombie = fields[0].equals("Z");
                    long ppid = Long.parseLong(fields[1]);
                    if (zombie && ppid == self) {
                        found.add(proc.getFileName() + " (zombie child of the test JVM)");
                        continue;
                    }
                    if (!zombie && Files.readSymbolicLink(proc.resolve("cwd")).normalize().startsWith(root)) {
                        found.add(proc.getFileName() + " " + Files.readString(proc.resolve("cmdline")).replace('\0', ' '));
                    }
                } catch (IOException | RuntimeException e) {
                    // the process ended while we looked, or is not ours to read
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc", e);
        }
        return found;
    }
}
