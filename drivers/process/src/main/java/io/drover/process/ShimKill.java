package io.drover.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * SIGKILLs the task of a live shim, sparing the shim: its task leads a process group of its own (drover-shim.c), so
 * the shim survives the kill, kills and reaps whatever the task left below it (it is a child subreaper: every
 * orphan of the tree is its child) and ends. Its exit is then the tree kill's verification, with no {@code /proc}
 * search on the kill path (issue 18).
 *
 * <p>Two steps. {@link #pin} (at the task's first signal, normally its {@code kill_signal} a kill timeout before the
 * deadline, or at the SIGKILL itself when there was none): read {@code /proc/SHIM/task/SHIM/children} and take its
 * first entry, the task (the shim forks once; the kernel appends forked and re-parented children to the list's
 * tail, so the task heads it while it is unreaped), open a pidfd for it, check in its {@code stat} that its parent
 * is the shim and that it leads its own group, and check through the shim's pidfd that the shim still lives (so the
 * list was the shim's). {@link #kill} (on the timer thread at the deadline): {@code pidfd_send_signal(SIGKILL)} to
 * the task and, if that reached it (not reaped yet), {@code kill(-task, SIGKILL)} — the same two syscalls as a kill
 * without the shim. Orphans the shim adopted are the shim's to kill once its task died. (Giving the killed task and
 * the shim nice -10 after the SIGKILL, so that they get a core to die on a saturated machine, was measured and
 * dropped: no gain beyond the noise at load 13-18, and the raised processes then competed with the timer thread
 * for the rest of the burst; docs/performance.md, issue 18.)
 *
 * <p>The group kill names the task's pid: the task was pinned by its pidfd and leads the group, so the number stays
 * the group's while the task or any member lives; only if the task and every member were gone between the two
 * syscalls and the number were handed to a new group leader in those microseconds could it reach another group (a
 * pid wrap-around in that window; the kill without the shim has no such window, its group leader being the agent's
 * unreaped child). Thread-safe, non-blocking (a few syscalls and {@code /proc} reads of the shim's own child).
 */
final class ShimKill {
    private ShimKill() {}

    /** A shim's task, pinned by a pidfd the caller owns (closed with {@link #close}). */
    record Task(ProcTable.Proc proc, int pidfd) {}

    /** What {@link #pin} found. */
    enum Layout { PINNED, NOT_YET, OLDER }

    /**
     * Pins the task of the live shim {@code shim} (pidfd {@code shimPidfd}, held by the caller).
     *
     * @param out receives the pinned task when the result is {@link Layout#PINNED}
     * @return {@link Layout#NOT_YET} when the shim has no child that can be pinned (its fork has not happened, or its
     *     task was reaped, or the shim is gone: the caller kills the shim's group and searches, as without this),
     *     {@link Layout#OLDER} when its first child shares the shim's group (a shim older than this layout)
     */
    static Layout pin(ProcessSupervisor owner, int shim, int shimPidfd, Task[] out) {
        int[] children = children(shim);
        if (children.length == 0) {
            return Layout.NOT_YET;
        }
        int c = children[0];
        int fd = owner.pidfdOpen(c);
        if (fd < 0) {
            return Layout.NOT_YET; // reaped by the shim since the list was read
        }
        Optional<ProcTable.Proc> p = ProcTable.read(c);
        Layout layout = p.isEmpty() || p.get().ppid() != shim || !owner.pidfdAlive(shimPidfd) ? Layout.NOT_YET
                : p.get().pgid() == shim ? Layout.OLDER
                : p.get().pgid() != c ? Layout.NOT_YET // between the fork and its setpgid
                : Layout.PINNED;
        if (layout != Layout.PINNED) {
            owner.closeFd(fd);
            return layout;
        }
        out[0] = new Task(p.get(), fd);
        return layout;
    }

    /** SIGKILLs the pinned task and, if that reached it, its group (see the class comment). */
    static void kill(ProcessSupervisor owner, Task task) {
        if (owner.pidfdKill(task.pidfd())) {
            // only while the task is unreaped (a zombie included): its pid is then still its group's number. Once
            // the shim reaped it, the shim kills what is left itself.
            owner.killGroupQuietly(task.proc().pid());
        }
    }

    static void close(ProcessSupervisor owner, Task task) {
        if (task != null) {
            owner.closeFd(task.pidfd());
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
