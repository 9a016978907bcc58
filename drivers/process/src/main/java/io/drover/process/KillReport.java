package io.drover.process;

import java.util.List;

/**
 * The outcome of a tree kill: which processes were sent SIGKILL and which were still alive when the
 * verification deadline passed (normally none).
 *
 * @param killed every process of the task's tree that the search found and signalled (the task's own pid
 *     included); members of a live task's group that the first {@code kill(-pgid)} killed and that were gone
 *     before the search looked are not listed
 * @param survivors processes of the tree still not dead at the deadline
 */
public record KillReport(List<ProcTable.Proc> killed, List<ProcTable.Proc> survivors) {
    public KillReport {
        killed = List.copyOf(killed);
        survivors = List.copyOf(survivors);
    }

    static final KillReport NOTHING = new KillReport(List.of(), List.of());

    public boolean clean() {
        return survivors.isEmpty();
    }
}
