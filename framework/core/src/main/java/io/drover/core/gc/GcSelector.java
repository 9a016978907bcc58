package io.drover.core.gc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * Chooses which allocations a GC pass destroys. Pure: same inputs, same plan; safe from any thread.
 *
 * <ol>
 *   <li><b>Count.</b> The client holds {@code candidates + incoming} allocations. Over {@code maxAllocs}, it
 *       destroys terminal allocations, oldest terminal first (by the time they became terminal, then create
 *       time, then id); when still over, allocations whose only live tasks are killable poststop tasks, oldest
 *       created first. A {@link GcPass#MANUAL manual} pass first takes every terminal allocation.</li>
 *   <li><b>Disk, then inodes.</b> While the data_dir's file system stays over a threshold (counting what the
 *       victims so far free), the oldest remaining terminal allocation goes.</li>
 * </ol>
 *
 * A limit that cannot be met gives a {@link GcPlan#skipped} line; the new allocations are placed anyway.
 */
public final class GcSelector {
    private static final Comparator<GcCandidate> OLDEST_TERMINAL = Comparator.comparingLong(GcCandidate::terminalAt)
            .thenComparingLong(GcCandidate::createTime).thenComparing(GcCandidate::allocId);
    private static final Comparator<GcCandidate> OLDEST_CREATED = Comparator.comparingLong(GcCandidate::createTime)
            .thenComparing(GcCandidate::allocId);

    private GcSelector() {}

    /**
     * @param candidates every allocation the client holds that is neither destroyed nor being destroyed
     * @param incoming allocations about to be placed ({@link GcPass#PLACEMENT}); 0 otherwise
     */
    public static GcPlan select(List<GcCandidate> candidates, GcLimits limits, DiskUsage usage, GcPass pass,
            int incoming) {
        Deque<GcCandidate> terminal = new ArrayDeque<>(candidates.stream().filter(GcCandidate::terminal)
                .sorted(OLDEST_TERMINAL).toList());
        Deque<GcCandidate> killable = new ArrayDeque<>(candidates.stream()
                .filter(c -> !c.terminal() && c.poststopKillable()).sorted(OLDEST_CREATED).toList());
        List<GcVictim> victims = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        long freedBytes = 0;
        long freedInodes = 0;

        if (pass == GcPass.MANUAL) {
            while (!terminal.isEmpty()) {
                GcCandidate c = terminal.poll();
                victims.add(new GcVictim(c.allocId(), GcReason.MANUAL, false));
                freedBytes += c.diskBytes();
                freedInodes += c.inodes();
            }
        }
        long held = candidates.size() + (long) incoming - victims.size();
        while (held > limits.maxAllocs() && (!terminal.isEmpty() || !killable.isEmpty())) {
            boolean fromTerminal = !terminal.isEmpty();
            GcCandidate c = fromTerminal ? terminal.poll() : killable.poll();
            victims.add(new GcVictim(c.allocId(), pass.countReason(), !fromTerminal));
            freedBytes += c.diskBytes();
            freedInodes += c.inodes();
            held--;
        }
        if (held > limits.maxAllocs()) {
            long kept = candidates.stream().filter(c -> c.poststopOnly() && !c.poststopKillable()).count();
            skipped.add("garbage collection skipped because no terminal allocations: reason=\"number of allocations ("
                    + held + ") is over the limit (" + limits.maxAllocs() + ")\""
                    + (kept > 0 ? "; " + kept + " allocation(s) kept live by running poststop tasks that the kill "
                            + "policy does not kill" : ""));
        }

        long usedBytes = usage.usedBytes() - freedBytes;
        while (DiskUsage.over(usedBytes, usage.totalBytes(), limits.diskThreshold()) && !terminal.isEmpty()) {
            GcCandidate c = terminal.poll();
            victims.add(new GcVictim(c.allocId(), GcReason.DISK, false));
            usedBytes -= c.diskBytes();
            freedInodes += c.inodes();
        }
        if (DiskUsage.over(usedBytes, usage.totalBytes(), limits.diskThreshold())) {
            skipped.add("garbage collection skipped because no terminal allocations: reason=\"disk usage ("
                    + DiskUsage.percent(usedBytes, usage.totalBytes()) + ") is over gc_disk_usage_threshold ("
                    + limits.diskThreshold() + "%)\"");
        }
        long usedInodes = usage.usedInodes() - freedInodes;
        while (DiskUsage.over(usedInodes, usage.totalInodes(), limits.inodeThreshold()) && !terminal.isEmpty()) {
            GcCandidate c = terminal.poll();
            victims.add(new GcVictim(c.allocId(), GcReason.INODES, false));
            usedInodes -= c.inodes();
        }
        if (DiskUsage.over(usedInodes, usage.totalInodes(), limits.inodeThreshold())) {
            skipped.add("garbage collection skipped because no terminal allocations: reason=\"inode usage ("
                    + DiskUsage.percent(usedInodes, usage.totalInodes()) + ") is over gc_inode_usage_threshold ("
                    + limits.inodeThreshold() + "%)\"");
        }
        return new GcPlan(victims, skipped);
    }
}
