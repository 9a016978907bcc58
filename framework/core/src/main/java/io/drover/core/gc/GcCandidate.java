package io.drover.core.gc;

/**
 * One allocation the client still holds (not destroyed, not being destroyed), as GC selection sees it.
 *
 * @param createTime unix nanos
 * @param terminalAt unix nanos when it became terminal (its last task's FinishedAt); -1 while it is live
 * @param poststopOnly live, and every live task is a poststop task
 * @param poststopKillable {@code poststopOnly} and every live poststop task may be killed at destroy (the kill
 *     policy, or the task's {@code gc_kill})
 * @param diskBytes bytes of its allocation directory (0 when not measured)
 * @param inodes files and directories in its allocation directory (0 when not measured)
 */
public record GcCandidate(String allocId, long createTime, long terminalAt, boolean poststopOnly,
        boolean poststopKillable, long diskBytes, long inodes) {

    public boolean terminal() {
        return terminalAt >= 0;
    }
}
