package io.drover.agent;

import io.drover.core.state.AllocationState;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the job registry holds: the current {@link JobRegistry.Entry} of each job id and its kept versions
 * ({@link JobVersions}). The rules of a change (what a registration, stop or purge makes of an entry) stay in
 * {@link JobRegistry}; this only stores them.
 *
 * <p>Thread-safe: writes come from the registry under its lock; reads are lock-free over immutable entries (a
 * reader sees each job's entry before or after a change, never half of one). No method blocks.
 */
final class RegistryEntries {
    private final Map<String, JobRegistry.Entry> jobs = new ConcurrentHashMap<>();
    private final JobVersions versions = new JobVersions();
    private final RaftIndex index;

    /** @param index the agent's index, each {@link #change} takes and publishes one value of */
    RegistryEntries(RaftIndex index) {
        this.index = index;
    }

    /** The current entry of a job; null when there is none. */
    JobRegistry.Entry get(String jobId) {
        return jobs.get(jobId);
    }

    /** Every current entry, in no order. */
    Collection<JobRegistry.Entry> all() {
        return jobs.values();
    }

    /** Every current entry, sorted by job id. */
    List<JobRegistry.Entry> sorted() {
        return jobs.values().stream().sorted(Comparator.comparing(e -> e.job().id())).toList();
    }

    /** Holds {@code entry} as its job's current entry and keeps it as a version (a registration, a restore). */
    void keep(JobRegistry.Entry entry) {
        jobs.put(entry.job().id(), entry);
        versions.keep(entry);
    }

    /** Holds {@code entry} as its job's current entry without keeping it as a version (a stop). */
    void put(JobRegistry.Entry entry) {
        jobs.put(entry.job().id(), entry);
    }

    /**
     * Holds {@code e} with {@code allocIds} and {@code stopped} at a new index, then publishes that index (it wakes
     * blocking queries once the change is visible).
     */
    void change(JobRegistry.Entry e, List<String> allocIds, boolean stopped) {
        long at = index.take();
        put(e.changed(at, allocIds, stopped));
        index.publish(at);
    }

    /** Forgets a job and its kept versions (a purge, its last allocation forgotten). Idempotent. */
    void drop(String jobId) {
        jobs.remove(jobId);
        versions.forget(jobId);
    }

    /**
     * Takes a forgotten allocation out of its job's list at a new index, and forgets the job when it was its last;
     * nothing when the job no longer lists it (purged, and maybe registered anew, meanwhile). Idempotent.
     *
     * @return whether the job was forgotten with it
     */
    boolean removeAlloc(String jobId, String allocId) {
        JobRegistry.Entry e = jobs.get(jobId);
        if (e == null || !e.allocIds().contains(allocId)) {
            return false;
        }
        List<String> left = e.allocIds().stream().filter(id -> !id.equals(allocId)).toList();
        if (left.isEmpty()) {
            drop(jobId);
            return true;
        }
        change(e, left, e.stopped());
        return false;
    }

    /** The kept versions of a job, its current entry first; empty when there is no such job. */
    List<JobRegistry.Entry> versions(String jobId) {
        JobRegistry.Entry current = jobs.get(jobId);
        return current == null ? List.of() : versions.of(current);
    }

    /** The job version an allocation runs (see {@link JobVersions#versionOf}). */
    int versionOf(AllocationState alloc) {
        return versions.versionOf(jobs.get(alloc.jobId()), alloc);
    }
}
