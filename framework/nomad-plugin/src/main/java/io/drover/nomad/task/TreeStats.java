package io.drover.nomad.task;

import io.drover.process.ProcTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU and memory of a task's process tree from {@code /proc}: the tree is the run's session and group and their
 * descendants ({@link ProcTable#tree}); per process, user and system CPU time ({@code stat}) and resident memory
 * ({@code statm}). One machine-wide process snapshot serves every sample taken within {@value #SNAPSHOT_MILLIS} ms,
 * so a thousand tasks sampled each second cost a few scans, not a thousand. Blocking reads: called only on the
 * {@code drover-nomad-stats} thread.
 */
public final class TreeStats {
    static final long SNAPSHOT_MILLIS = 500;
    private static final long PAGE = 4096;
    private static final double TICKS = 100.0; // USER_HZ on Linux

    private ProcTable snapshot;
    private long snapshotAt;

    /** One process's usage: CPU seconds (user, system), resident bytes. */
    public record Usage(double userSeconds, double systemSeconds, long rssBytes) {
        Usage plus(Usage o) {
            return new Usage(userSeconds + o.userSeconds, systemSeconds + o.systemSeconds, rssBytes + o.rssBytes);
        }
    }

    /** Usage by pid of the tree rooted at {@code pid} with session {@code sid} and group {@code pgid}. */
    public synchronized Map<Integer, Usage> sample(int pid, int sid, int pgid) {
        long now = System.nanoTime() / 1_000_000;
        if (snapshot == null || now - snapshotAt > SNAPSHOT_MILLIS) {
            snapshot = ProcTable.snapshot();
            snapshotAt = now;
        }
        Map<Integer, Usage> out = new LinkedHashMap<>();
        List<ProcTable.Proc> tree = snapshot.tree(pid, sid, pgid);
        for (ProcTable.Proc p : tree) {
            if (!p.zombie()) {
                usage(p.pid()).ifPresent(u -> out.put(p.pid(), u));
            }
        }
        return out;
    }

    public static Usage total(Map<Integer, Usage> byPid) {
        Usage t = new Usage(0, 0, 0);
        for (Usage u : byPid.values()) {
            t = t.plus(u);
        }
        return t;
    }

    private static java.util.Optional<Usage> usage(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"), StandardCharsets.UTF_8);
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            // fields after "pid (comm) ": state(0) ... utime(11) stime(12)
            double user = Long.parseLong(f[11]) / TICKS;
            double system = Long.parseLong(f[12]) / TICKS;
            String statm = Files.readString(Path.of("/proc", Integer.toString(pid), "statm"), StandardCharsets.UTF_8);
            long rss = Long.parseLong(statm.trim().split(" ")[1]) * PAGE;
            return java.util.Optional.of(new Usage(user, system, rss));
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty(); // gone meanwhile
        }
    }
}
