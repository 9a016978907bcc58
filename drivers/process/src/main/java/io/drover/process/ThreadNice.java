package io.drover.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Raises the scheduling priority of the calling thread (its nice value; on Linux each thread has its own) where
 * the process may: as root, or with {@code CAP_SYS_NICE}. Elsewhere the kernel refuses (EACCES/EPERM) and the
 * thread keeps nice 0: nothing else changes. Used by the reaper thread, whose wake-ups decide how soon a killed
 * task's exit is seen while the machine is saturated (issue 18, docs/process-supervision.md).
 *
 * <p>A raised thread must never spawn a process: a child inherits its nice value. The reaper only reaps, reads
 * pipes and runs verification deadlines; tasks are spawned on the engine's threads.
 */
final class ThreadNice {
    private static final Logger LOG = LoggerFactory.getLogger(ThreadNice.class);
    private static final int PRIO_PROCESS = 0;

    /** The nice value of the reaper thread when allowed; the engine's timer thread uses the same. */
    static final int RAISED = -10;

    private ThreadNice() {}

    /** Sets the calling thread's nice value; true when the kernel accepted it. Never throws. */
    static boolean raiseCallingThread(Native nat, int nice) {
        try {
            int tid = nat.libc.gettid();
            if (nat.libc.setpriority(PRIO_PROCESS, tid, nice) == 0) {
                LOG.debug("thread {} ({}) runs at nice {}", Thread.currentThread().getName(), tid, nice);
                return true;
            }
            LOG.debug("thread {} keeps its priority: setpriority: {} (needs root or CAP_SYS_NICE)",
                    Thread.currentThread().getName(), nat.strerror(nat.errno()));
        } catch (RuntimeException | LinkageError e) {
            LOG.debug("thread {} keeps its priority: {}", Thread.currentThread().getName(), e.toString());
        }
        return false;
    }
}
