package io.drover.core.store;

import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Numbers the distinct jobs so that each is written once ({@code J} record) and allocation records name it by
 * reference. Refs stay stable across compaction (the snapshot re-declares the jobs still in use). Writer thread
 * only.
 */
final class JobRefs {
    private final Map<Job, Long> byValue = new HashMap<>();
    private final Map<Job, Long> byIdentity = new IdentityHashMap<>();
    private final Map<Long, Job> byRef = new HashMap<>();
    private long next = 1;

    /** Seeds the refs read back at open. */
    JobRefs(Map<Long, Job> known) {
        known.forEach(this::put);
        next = known.keySet().stream().mapToLong(Long::longValue).max().orElse(0) + 1;
    }

    /** The ref of {@code job}; a job not seen before gets a new ref and its {@code J} record appended. */
    long ref(Job job, FrameBuffer out) throws IOException {
        Long ref = byIdentity.get(job);
        if (ref == null) {
            ref = byValue.get(job);
            if (ref == null) {
                ref = next++;
                out.append(Records.Rec.job(ref, job));
                byValue.put(job, ref);
                byRef.put(ref, job);
            }
            byIdentity.put(job, ref);
        }
        return ref;
    }

    /** Forgets the jobs no allocation uses any more; returns the ref → job of those still used. */
    Map<Long, Job> retain(Collection<AllocationState> live) {
        Map<Long, Job> used = new HashMap<>();
        for (AllocationState a : live) {
            Long ref = byIdentity.get(a.job());
            if (ref == null) {
                ref = byValue.get(a.job());
            }
            if (ref != null) {
                used.put(ref, byRef.get(ref));
            }
        }
        byValue.clear();
        byIdentity.clear();
        byRef.clear();
        used.forEach(this::put);
        return used;
    }

    private void put(long ref, Job job) {
        byValue.put(job, ref);
        byIdentity.put(job, ref);
        byRef.put(ref, job);
    }
}
