package io.drover.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SIGKILLs what runs below a live shim, sparing the shim: its task leads a process group of its own
 * (drover-shim.c), so the shim survives the kill, kills and reaps whatever the task left below it (it is a child
 * subreaper: every orphan of the tree is its child) and ends. Its exit is then the tree kill's verification, with
 * no {@code /proc} search on the kill path (issue 18).
 *
 * <p>Steps, all on the caller's thread (the timer thread at a kill deadline): read
 * {@code /proc/SHIM/task/SHIM/children} (one small read: the task, and orphans the shim adopted meanwhile), pin
 * each child with a pidfd and check in its {@code stat} that its parent is the shim (a recycled pid is never
 * signalled), check through the shim's pidfd that the shim still lives (so the list was the shim's), then
 * {@code pidfd_send_signal(SIGKILL)} each child and {@code kill(-pgid)} each that leads its group. Where the
 * process may (root or {@code CAP_SYS_NICE}), the killed children and the shim then get nice {@value
 * ThreadNice#RAISED}: they run no user code any more (a child has SIGKILL pending; the shim only reaps, writes its
 * status and exits) and need a core only to die, which on a machine its tasks saturate they waited for.
 *
 * <p>Not applicable (null: the caller kills the shim's group and searches {@code /proc} as before) when the shim
 * has no child (its fork has not happened yet, or the task was reaped and the shim is ending), when a child is in
 * the shim's own group (a shim older than this layout, re-attached), or when the shim is gone. Thread-safe,
 * non-blocking (a few syscalls and {@code /proc} reads of the shim's own children).
 */
final class ShimKill {
    private static final int SIGKILL = 9;

    private ShimKill() {}

    /**
     * @param shim the shim's pid; {@code shimPidfd} its pidfd (held by the caller, still open)
     * @return the children killed (never empty), or null when the caller must fall back (see the class comment)
     */
    static List<ProcTable.Proc> killBelow(ProcessSupervisor owner, int shim, int shimPidfd) {
        int[] children = children(shim);
        if (children.length == 0) {
            return null;
        }
        List<ProcTable.Proc> procs = new ArrayList<>(children.length);
        List<Integer> fds = new ArrayList<>(children.length);
        try {
            byte[] buf = new byte[ProcTable.STAT_BUFFER];
            for (int c : children) {
                int fd = owner.pidfdOpen(c);
                if (fd < 0) {
                    continue; // gone (reaped by the shim) since the list was read
                }
                Optional<ProcTable.Proc> p = ProcTable.read(c, buf);
                if (p.isEmpty() || p.get().ppid() != shim) {
                    owner.closeFd(fd); // gone, or the pid was recycled: not the shim's
                    continue;
                }
                if (p.get().pgid() == shim) {
                    owner.closeFd(fd);
                    return null; // an older shim: its task shares the shim's group
                }
                procs.add(p.get());
                fds.add(fd);
            }
            if (procs.isEmpty() || !owner.pidfdAlive(shimPidfd)) {
                return null;
            }
            for (int i = 0; i < procs.size(); i++) {
                ProcTable.Proc p = procs.get(i);
                owner.pidfdKill(fds.get(i));
                if (p.pgid() == p.pid()) {
                    // the group is pinned by its leader, the shim's unreaped child pinned by the pidfd above
                    owner.killGroupQuietly(p.pid());
                }
            }
            for (int i = 0; i < procs.size(); i++) {
                owner.raiseProcess(procs.get(i).pid()); // after the SIGKILL: never runs user code raised
            }
            owner.raiseProcess(shim);
            return procs;
        } finally {
            fds.forEach(owner::closeFd);
        }
    }

    /** The pids in {@code /proc/SHIM/task/SHIM/children}; empty when none or unreadable. */
    static int[] children(int shim) {
        byte[] text;
        try {
            text = Files.readAllBytes(Path.of("/proc/" + shim + "/task/" + shim + "/children"));
        } catch (IOException e) {
            return new int[0];
        }
        int[] out = new int[4];
        int n = 0;
        int v = -1;
        for (int i = 0; i <= text.length; i++) {
            byte b = i < text.length ? text[i] : (byte) ' ';
            if (b >= '0' && b <= '9') {
                v = (v < 0 ? 0 : v * 10) + (b - '0');
            } else if (v > 0) {
                if (n == out.length) {
                    out = java.util.Arrays.copyOf(out, n * 2);
                }
                out[n++] = v;
                v = -1;
            }
        }
        return java.util.Arrays.copyOf(out, n);
    }
}
