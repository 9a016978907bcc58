package io.drover.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Proves that a test left no process behind. Each test gets a unique marker variable that it puts in the
 * environment of every process it starts ({@link #env()}); environments are inherited by every descendant,
 * including those that called {@code setsid} and were re-parented, so after the test the extension scans
 * {@code /proc/<pid>/environ} for the marker: any live (non-zombie) process carrying it is a leak. It also
 * fails on zombies among the test JVM's own children (an unreaped task). Processes die asynchronously after
 * SIGKILL, so the check awaits the condition for up to 5 s before failing; leaked processes are then killed
 * so that one failure does not cascade. It fails, too, on a drover task cgroup ({@link TaskCgroups#node()}) that
 * appeared during the test and is still there after it (a run whose cgroup was not removed); such cgroups are
 * then removed.
 */
public final class ProcessLeakCheck implements BeforeEachCallback, AfterEachCallback {
    public static final String MARKER_VAR = "DROVER_TEST_MARKER";
    private static final Duration PATIENCE = Duration.ofSeconds(5);
    private static volatile String marker = "none";
    private static volatile List<Path> cgroupsBefore = List.of();

    /** The marker and a PATH: the base environment of every process a test starts. */
    public static Map<String, String> env() {
        Map<String, String> env = new HashMap<>();
        env.put(MARKER_VAR, marker);
        env.put("PATH", "/usr/local/bin:/usr/bin:/bin");
        return env;
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        marker = UUID.randomUUID().toString();
        cgroupsBefore = TaskCgroups.node().present();
    }

    /** Drover task cgroups present now that were not before the test. */
    public static List<Path> newCgroups() {
        List<Path> now = new ArrayList<>(TaskCgroups.node().present());
        now.removeAll(cgroupsBefore);
        return now;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        String mine = marker;
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        // the removals of ended runs' cgroups wait CgroupWorker.DELAY_MILLIS: done now; a cgroup never handed over stays
        CgroupWorker.instance().flush().orTimeout(PATIENCE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)
                .exceptionally(e -> null).join();
        List<String> problems = problemsWithCgroups(mine);
        while (!problems.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(5_000_000);
            problems = problemsWithCgroups(mine);
        }
        if (!problems.isEmpty()) {
            for (Path cg : newCgroups()) {
                TaskCgroups.rmdir(cg);
            }
            for (ProcTable.Proc p : ProcTable.snapshot().all()) {
                if (!p.zombie() && carries(p.pid(), mine)) {
                    ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            throw new AssertionError("processes left behind by " + context.getDisplayName() + ": " + problems);
        }
    }

    private static List<String> problemsWithCgroups(String mine) {
        List<String> problems = problems(mine);
        for (Path cg : newCgroups()) {
            problems.add("task cgroup left " + cg);
        }
        return problems;
    }

    /** Live processes carrying {@code mine}, and zombie children of this JVM. Empty when clean. */
    public static List<String> problems(String mine) {
        int self = (int) ProcessHandle.current().pid();
        List<String> problems = new ArrayList<>();
        for (ProcTable.Proc p : ProcTable.snapshot().all()) {
            if (p.zombie() && p.ppid() == self) {
                problems.add("zombie child " + p);
            } else if (!p.zombie() && p.pid() != self && carries(p.pid(), mine)) {
                problems.add("live " + p);
            }
        }
        return problems;
    }

    private static boolean carries(int pid, String mine) {
        try {
            byte[] environ = Files.readAllBytes(Path.of("/proc", Integer.toString(pid), "environ"));
            String text = new String(environ, StandardCharsets.UTF_8);
            return text.contains(MARKER_VAR + "=" + mine);
        } catch (IOException e) {
            return false;
        }
    }

    /** Every pid whose environment carries the current test's marker (for tests that assert on a tree). */
    public static List<Integer> markedPids() {
        List<Integer> pids = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path d : dirs) {
                int pid = Integer.parseInt(d.getFileName().toString());
                if (carries(pid, marker)) {
                    pids.add(pid);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return pids;
    }
}
