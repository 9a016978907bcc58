package io.drover.agent;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The job registry's side of parent jobs (periodic or parameterized: {@link io.drover.core.spec.JobLaunch#parent}):
 * tells the one {@link JobRegistry.ParentListener} of each change of a parent, merges a parent the agent's parent-job
 * file recorded into the entry the allocations rebuilt, and lists a parent's children. The parents' entries stay in
 * the registry's map: to every read a parent is a job like the others.
 *
 * <p>Thread-safe: the listener is read through one volatile field. {@link #registered}, {@link #stopped} and
 * {@link #purged} are called under the registry's lock, on the thread that made the change, and block as long as the
 * listener does ({@code ParentJobs} records the parent on disk); none of them is idempotent (each call is one
 * notification). The static methods are pure.
 */
final class RegistryParents {
    private volatile JobRegistry.ParentListener listener = (id, e) -> {};

    /** Sets the one listener (agent start, once the recorded parents are back); replaces any earlier one. */
    void listen(JobRegistry.ParentListener l) {
        this.listener = l;
    }

    /**
     * After a registration that changed the job: told when the new version is a parent, and when the old one was
     * (a parent re-registered as an ordinary job: its listener stops tracking it).
     *
     * @param old the entry before the registration, null for a first registration
     */
    void registered(JobRegistry.Entry old, JobRegistry.Entry entry) {
        if (entry.job().launch().parent() || (old != null && old.job().launch().parent())) {
            listener.changed(entry.job().id(), Optional.of(entry));
        }
    }

    /** After a stop: told when the stopped job is a parent. */
    void stopped(JobRegistry.Entry stopped) {
        if (stopped.job().launch().parent()) {
            listener.changed(stopped.job().id(), Optional.of(stopped));
        }
    }

    /** After a purge: told (with no entry) when the purged job was a parent. */
    void purged(JobRegistry.Entry last) {
        if (last.job().launch().parent()) {
            listener.changed(last.job().id(), Optional.empty());
        }
    }

    /**
     * The entry a recorded parent is put back as: the recorded one, with the allocation ids of the entry the
     * allocations rebuilt when there is one (a parent places none, but a job re-registered as a parent keeps its
     * earlier versions' allocations listed).
     *
     * @param fromAllocs what the registry's restore rebuilt for the same job id, null when nothing
     */
    static JobRegistry.Entry restored(JobRegistry.Entry recorded, JobRegistry.Entry fromAllocs) {
        List<String> ids = fromAllocs == null ? recorded.allocIds() : fromAllocs.allocIds();
        return recorded.changed(recorded.modifyIndex(), ids, recorded.stopped());
    }

    /** The jobs among {@code jobs} a parent launched (their {@code ParentID} is {@code parentId}), sorted by id. */
    static List<JobRegistry.Entry> children(Collection<JobRegistry.Entry> jobs, String parentId) {
        return jobs.stream().filter(e -> e.job().runtime().parentId().equals(parentId))
                .sorted(Comparator.comparing(e -> e.job().id())).toList();
    }
}
