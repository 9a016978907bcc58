package io.drover.agent;

import io.drover.core.reschedule.Rescheduler;
import java.util.List;

/**
 * The job registry's side of rescheduling: holds the {@link Rescheduler} (set once, before any registration; none
 * in tests of other parts, then nothing is rescheduled), answers lineage reads, and cancels or forgets what a
 * stop, a re-registration or a purge ends. Placing a replacement stays in {@link JobRegistry}, which checks and
 * changes the job's entry under its lock ({@link RegistryPlacement} places it). Thread-safe: the rescheduler is
 * read through one volatile field; each method is idempotent and never blocks.
 */
final class RegistryReschedules {
    private volatile Rescheduler rescheduler;

    /** Sets the rescheduler and points it at {@code target} (the registry's placement of a replacement). */
    void set(Rescheduler r, Rescheduler.Target target) {
        this.rescheduler = r;
        r.target(target);
    }

    /** The reschedule lineage of an allocation; empty without a rescheduler or a lineage. */
    Rescheduler.Lineage lineage(String allocId) {
        Rescheduler r = rescheduler;
        return r == null ? new Rescheduler.Lineage(null, null, List.of()) : r.lineage(allocId);
    }

    /** Whether a replacement of this allocation is armed and not placed yet. */
    boolean pending(String allocId) {
        Rescheduler r = rescheduler;
        return r != null && r.pending(allocId);
    }

    /** Cancels the pending replacements of a job's allocations (a stop or re-registration). */
    void cancel(JobRegistry.Entry e) {
        Rescheduler r = rescheduler;
        if (r != null) {
            r.cancel(e.allocIds());
        }
    }

    /** Forgets a purged allocation's lineage and pending replacement. */
    void forget(String allocId) {
        Rescheduler r = rescheduler;
        if (r != null) {
            r.forget(allocId);
        }
    }
}
