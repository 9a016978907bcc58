package io.drover.core.time;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises one thread's scheduling priority to nice {@value #NICE} where the process may (effective uid 0, or
 * {@code CAP_SYS_NICE}): the agent's timer thread, which sends the kill escalation's SIGKILL at its deadline, so
 * that on a machine saturated by the tasks themselves it still gets a core when a deadline is due (issue 18,
 * docs/performance.md). Elsewhere nothing happens and the thread keeps nice 0.
 *
 * <p>Java has no {@code setpriority}, and the engine has no native binding (loading one costs ~280 ms): the thread
 * reads its own kernel id from {@code /proc/thread-self} (a link the kernel makes, {@code PID/task/TID}), and a
 * short-lived daemon thread runs {@code renice -n -10 -p TID} (util-linux, by absolute path, with an empty
 * environment), which on Linux sets that one thread's nice value. Never blocks the raised thread; never throws.
 * The renice thread is returned to its owner, which ends it when the raised thread ends ({@link RealTimers#close()}):
 * an interrupt kills the renice process and waits for it, so no child of the agent outlives its close.
 *
 * <p>A raised thread must never spawn a process (a child inherits its nice value): the timer thread only posts
 * work and signals, tasks are spawned on engine threads.
 */
public final class RaisedPriority {
    private static final Logger LOG = LoggerFactory.getLogger(RaisedPriority.class);
    public static final int NICE = -10;
    private static final int CAP_SYS_NICE = 23;
    private static final List<Path> RENICE = List.of(Path.of("/usr/bin/renice"), Path.of("/bin/renice"));

    private RaisedPriority() {}

    /**
     * Starts raising the calling thread (returns at once; the renice runs on its own short-lived thread).
     *
     * @return the started renice thread, which ends by itself once renice exited (at most 5 s); interrupting it
     *     kills the renice process and waits (up to 1 s) for it to be reaped before the thread ends. Empty when
     *     this process may not raise priorities or the thread id is unknown: nothing was started
     */
    public static Optional<Thread> raiseCallingThread() {
        OptionalInt tid = callingThreadId();
        if (tid.isEmpty() || !allowed()) {
            LOG.debug("thread {} keeps nice 0 (the agent is not root and lacks CAP_SYS_NICE)",
                    Thread.currentThread().getName());
            return Optional.empty();
        }
        String name = Thread.currentThread().getName();
        Thread t = new Thread(() -> renice(tid.getAsInt(), name), "drover-renice");
        t.setDaemon(true);
        t.start();
        return Optional.of(t);
    }

    /** The calling thread's kernel id, from {@code /proc/thread-self} ({@code PID/task/TID}); empty if unreadable. */
    static OptionalInt callingThreadId() {
        try {
            Path link = Files.readSymbolicLink(Path.of("/proc/thread-self"));
            return OptionalInt.of(Integer.parseInt(link.getFileName().toString()));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    /** Effective uid 0, or CAP_SYS_NICE in the effective capability set ({@code /proc/self/status}). */
    static boolean allowed() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    long caps = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (caps & (1L << CAP_SYS_NICE)) != 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** The nice value of thread {@code tid} of this process ({@code /proc/self/task/TID/stat} field 19). */
    public static OptionalInt niceOf(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return OptionalInt.of(Integer.parseInt(f[19 - 3]));
        } catch (IOException | RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private static void renice(int tid, String name) {
        Path renice = RENICE.stream().filter(Files::isExecutable).findFirst().orElse(null);
        if (renice == null) {
            LOG.info("thread {} keeps nice 0: renice (util-linux) is not installed", name);
            return;
        }
        try {
            ProcessBuilder pb = new ProcessBuilder(renice.toString(), "-n", Integer.toString(NICE), "-p",
                    Integer.toString(tid));
            pb.environment().clear();
            pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.directory(new java.io.File("/"));
            Process p = pb.start();
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    kill(p);
                    LOG.info("thread {} keeps nice 0: renice did not answer within 5 s", name);
                } else if (p.exitValue() != 0) {
                    LOG.info("thread {} keeps nice 0: renice exited {}", name, p.exitValue());
                } else {
                    LOG.debug("thread {} ({}) runs at nice {}", name, tid, NICE);
                }
            } catch (InterruptedException e) {
                kill(p); // the owner is closing: the raised thread is gone, the renice has no purpose left
                LOG.debug("thread {}: renice stopped, its owner closed", name);
            }
        } catch (IOException e) {
            LOG.info("thread {} keeps nice 0: {}", name, e.getMessage());
        }
    }

    /** SIGKILLs the renice and waits (up to 1 s) until the JDK reaped it: no child is left behind once this returns. */
    private static void kill(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
