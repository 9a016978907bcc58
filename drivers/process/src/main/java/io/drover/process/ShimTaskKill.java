package io.drover.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The kill side of one supervised shim ({@link ShimKill}) as its {@link SupervisedProcess} keeps it: the shim's task,
 * pinned once at the run's first signal, and the tree kills whose verification is the shim's exit. Split out of
 * SupervisedProcess, whose monitor guards it: every method is called holding that monitor (not thread-safe on its
 * own), except {@link #verifiedByShimExit}, called after the shim was reaped with the list {@link #shimReaped}
 * handed over.
 */
final class ShimTaskKill {
    /** A tree kill whose verification is the shim's exit: completed when the shim is reaped. */
    record ByShimExit(CompletableFuture<KillReport> report, List<ProcTable.Proc> killed) {}

    private final ProcessSupervisor owner;
    private final int shim;
    private final long shimStartTime;
    private final List<ByShimExit> byShimExit = new ArrayList<>();
    private ShimKill.Task task; // the shim's task, pinned at the first signal
    private boolean olderShim; // its task shares the shim's group: no ShimKill

    ShimTaskKill(ProcessSupervisor owner, int shim, long shimStartTime) {
        this.owner = owner;
        this.shim = shim;
        this.shimStartTime = shimStartTime;
    }

    /** The pinned task, null when not pinned (yet, or ever: an older shim). */
    ShimKill.Task pinned() {
        return task;
    }

    /** Whether a pin may still be tried (none kept, not an older shim). */
    boolean mayPin() {
        return task == null && !olderShim;
    }

    /** Pins the task now, through the live shim's pidfd, unless tried and kept already; true when pinned. */
    boolean pin(int shimPidfd) {
        if (mayPin()) {
            ShimKill.Task[] out = new ShimKill.Task[1];
            ShimKill.Layout layout = ShimKill.pin(owner, shim, shimPidfd, out);
            task = out[0];
            olderShim = layout == ShimKill.Layout.OLDER;
        }
        return task != null;
    }

    /**
     * Keeps a pin made without the monitor ({@code out} of {@link ShimKill#pin}) when none was kept meanwhile and
     * the shim is live; else closes it. Returns the pin kept (possibly another thread's), null when none.
     */
    ShimKill.Task keep(ShimKill.Task out, ShimKill.Layout layout, boolean live) {
        if (mayPin() && live) {
            task = out;
            olderShim = layout == ShimKill.Layout.OLDER;
            return task;
        }
        if (out != null && out != task) {
            ShimKill.close(owner, out); // pinned meanwhile by another thread (or reaped): keep that one
        }
        return task;
    }

    /** A tree kill of the pinned task is to be verified by the shim's exit. Requires a pin. */
    void verifyByShimExit(CompletableFuture<KillReport> report) {
        byShimExit.add(new ByShimExit(report, List.of(
                new ProcTable.Proc(shim, "drover-shim", 'X', 0, shim, shim, shimStartTime), task.proc())));
    }

    /** The shim has not ended in time: true (the kill is the caller's again) unless it ended meanwhile. */
    boolean shimDidNotEnd(CompletableFuture<KillReport> report) {
        return byShimExit.removeIf(b -> b.report == report);
    }

    /** The shim was reaped: closes the pin and hands over the kills its exit verifies. Idempotent. */
    List<ByShimExit> shimReaped() {
        ShimKill.close(owner, task);
        task = null;
        List<ByShimExit> verified = List.copyOf(byShimExit);
        byShimExit.clear();
        return verified;
    }

    /**
     * Completes the kills the shim's exit verified (without the monitor): nothing is left below an ended shim; what
     * it killed itself after its task is in its status file.
     */
    static void verifiedByShimExit(List<ByShimExit> verified, Path statusFile, int shim) {
        if (verified.isEmpty()) {
            return;
        }
        List<ProcTable.Proc> byShim = ShimExits.killedByShim(statusFile, shim);
        for (ByShimExit b : verified) {
            List<ProcTable.Proc> killed = new ArrayList<>(b.killed);
            byShim.stream().filter(p -> killed.stream().noneMatch(k -> k.pid() == p.pid())).forEach(killed::add);
            b.report.complete(new KillReport(killed, List.of()));
        }
    }
}
