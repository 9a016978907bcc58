package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reaper's exit path run once on made-up input, so the first real exits of a JVM do not pay for loading and
 * linking it. Measured (issue 18, escalation row, 100 SIGKILLed tasks): the first exit the reaper handled loaded 27
 * classes of the plugin's class loader (the status file's parser, the shim-exit verification, the exit message)
 * and took 7.6-7.8 ms, and every exit queued behind it waited that long (docs/performance.md, "Item 2, session 15").
 * Nothing is signalled and no process is started: the status file is a temporary file of this JVM, deleted after.
 * Run on the reaper thread (scheduled at the supervisor's first spawn); never throws.
 */
final class ExitPathWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(ExitPathWarmUp.class);

    private ExitPathWarmUp() {}

    /** One pass: a SIGKILLed shim's exit and its verification, a failed exec's status, the exit message, the cgroup read. */
    static void run(ProcessSupervisor owner) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("drover-warm-up");
            Path status = Files.writeString(dir.resolve("status"), "signal 9 ended 1\nkilled 2 3 +1\n");
            ExitResult killed = ShimExits.fromStatusFile(owner, status, WaitStatus.decode(9));
            ShimExits.fromStatusFile(owner, status, WaitStatus.decode(127 << 8));
            ProcTable.Proc shim = new ProcTable.Proc(2, "drover-shim", 'X', 0, 2, 2, 0);
            CompletableFuture<KillReport> report = new CompletableFuture<>();
            ShimTaskKill.verifiedByShimExit(List.of(new ShimTaskKill.ByShimExit(report, List.of(shim))), status, 2);
            ExitMessage.compose(killed, OutsideKill.message(0, 0, "the task's start"), List.of(shim), 1);
            OutsideKill.strip(OutsideKill.KILLED);
            TaskCgroup none = new TaskCgroup(dir.resolve("no-cgroup"), null);
            none.oomKills();
            CgroupWorker.instance().submit(none); // starts its thread; the rmdir finds nothing
        } catch (IOException | RuntimeException e) {
            LOG.debug("exit path warm-up failed: {}", e.toString());
        } finally {
            if (dir != null) {
                try {
                    Files.deleteIfExists(dir.resolve("status"));
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    LOG.debug("exit path warm-up: cannot delete {}: {}", dir, e.toString());
                }
            }
        }
    }
}
