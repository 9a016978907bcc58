package io.drover.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The versions of each job the registry keeps, newest first, at most {@value #TRACKED} per job (Nomad's
 * {@code JobTrackedVersions}). Writes come from the registry under its lock; reads are lock-free over the
 * immutable lists kept per job.
 */
final class JobVersions {
    /** How many versions of a job are kept. */
    static final int TRACKED = 6;

    private final Map<String, List<JobRegistry.Entry>> byJob = new ConcurrentHashMap<>();

    /** Keeps {@code entry} as its job's newest version, replacing a kept entry of the same version. */
    void keep(JobRegistry.Entry entry) {
        byJob.compute(entry.job().id(), (id, list) -> {
            List<JobRegistry.Entry> out = new ArrayList<>();
            out.add(entry);
            if (list != null) {
                list.stream().filter(v -> v.version() != entry.version()).limit(TRACKED - 1).forEach(out::add);
            }
            return List.copyOf(out);
        });
    }

    /** Forgets every version of a job (purge, or its last allocation forgotten). */
    void forget(String jobId) {
        byJob.remove(jobId);
    }

    /**
     * The version an allocation runs: the kept version with its job, else {@code current}'s; 0 when its job is no
     * longer registered ({@code current} null).
     */
    int versionOf(JobRegistry.Entry current, io.drover.core.state.AllocationState alloc) {
        if (current == null) {
            return 0;
        }
        return of(current).stream().filter(v -> v.job().equals(alloc.job())).findFirst().orElse(current).version();
    }

    /** {@code current} first, then the other kept versions of its job, newest first. */
    List<JobRegistry.Entry> of(JobRegistry.Entry current) {
        List<JobRegistry.Entry> out = new ArrayList<>();
        out.add(current);
        byJob.getOrDefault(current.job().id(), List.of()).stream()
                .filter(v -> v.version() != current.version()).forEach(out::add);
        return out;
    }
}
