package io.drover.process;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds and kills the processes of runs an earlier agent started but never recorded (killed between the spawn
 * and the durable record of the run's handle): every supervised task and its shim carry the run's id
 * ({@link #RUN_ID_VAR}) and task directory ({@link #RUN_DIR_VAR}) in their environment, inherited by their
 * descendants, so they are found by a scan of {@code /proc/<pid>/environ} with no handle at all. Stateless;
 * blocks for the scan (one small file read per process of the machine) and for the deaths (bounded).
 */
public final class UnrecordedRuns {
    /** The run's id ({@code TaskConfig.taskId()}: alloc/task/run), in every supervised task's environment. */
    public static final String RUN_ID_VAR = "DROVER_RUN_ID";
    /** The run's task directory (under the agent's {@code data_dir/alloc}), in every supervised task's environment. */
    public static final String RUN_DIR_VAR = "DROVER_RUN_DIR";

    private static final Duration DEATH_WAIT = Duration.ofSeconds(5);

    private UnrecordedRuns() {}

    /**
     * SIGKILLs every live process whose {@link #RUN_DIR_VAR} is under {@code allocRoot} and whose
     * {@link #RUN_ID_VAR} is not in {@code keep}, then waits (at most 5 s) until they are dead. A pid is signalled
     * through a {@link ProcessHandle}, which checks the process's start time, so a recycled pid is not hit.
     *
     * @return the pids killed, by run id
     */
    public static Map<String, List<Long>> kill(Path allocRoot, Set<String> keep) {
        Path root = allocRoot.toAbsolutePath().normalize();
        Map<String, List<Long>> killed = new TreeMap<>();
        List<ProcessHandle> dying = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                int pid = Integer.parseInt(proc.getFileName().toString());
                if (pid == self) {
                    continue;
                }
                Optional<String> dir = ProcTable.environValue(pid, RUN_DIR_VAR);
                if (dir.isEmpty() || !Path.of(dir.get()).normalize().startsWith(root)) {
                    continue;
                }
                Optional<String> run = ProcTable.environValue(pid, RUN_ID_VAR);
                if (run.isEmpty() || keep.contains(run.get())) {
                    continue;
                }
                Optional<ProcessHandle> handle = ProcessHandle.of(pid);
                if (handle.isPresent() && handle.get().destroyForcibly()) {
                    dying.add(handle.get());
                    killed.computeIfAbsent(run.get(), k -> new ArrayList<>()).add((long) pid);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + DEATH_WAIT.toNanos();
        for (ProcessHandle p : dying) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                // still alive after SIGKILL (uninterruptible sleep): the caller's log names the pids
            }
        }
        return killed;
    }
}
