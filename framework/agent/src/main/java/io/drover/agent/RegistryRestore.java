package io.drover.agent;

import io.drover.core.state.AllocationState;
import io.drover.core.state.DesiredStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds registry entries from the allocations the state store recorded (agent start): per job id, the job of
 * its newest allocation, every allocation id oldest first, stopped when every allocation's desired status is
 * {@code stop}; the indexes derive from the allocations' recorded times, so they are the same after each restart.
 * Pure: no state of its own.
 */
final class RegistryRestore {
    /** One job rebuilt: its entry and the allocations of its current version (which its evaluation placed). */
    record Restored(JobRegistry.Entry entry, List<AllocationState> allocs, List<AllocationState> currentVersion) {}

    private RegistryRestore() {}

    /**
     * The registry's restore loop (agent start, before any registration, under the registry's lock): each job
     * rebuilt goes to {@code keep}, its allocation ids to {@code ids}, and one {@code job-register} evaluation per
     * job to {@code evals}, named as what placed its current version's allocations.
     *
     * @param restored the engine's allocations, oldest first
     */
    static void into(List<AllocationState> restored, java.util.function.Consumer<JobRegistry.Entry> keep,
            AllocIndex ids, Evaluations evals) {
        for (Restored r : byJob(restored)) {
            JobRegistry.Entry entry = r.entry();
            String jobId = entry.job().id();
            entry.allocIds().forEach(id -> ids.add(id, jobId));
            keep.accept(entry);
            Evaluations.Evaluation eval = evals.record(jobId, entry.job().type().wireName(), entry.job().priority(),
                    "job-register", entry.jobModifyIndex(), entry.jobModifyIndex() + 1, List.of());
            r.currentVersion().forEach(a -> ids.placedBy(a.id(), eval.id()));
        }
    }

    /** @param restored the engine's allocations, oldest first; the result is in first-seen job order */
    static List<Restored> byJob(List<AllocationState> restored) {
        Map<String, List<AllocationState>> byJob = new LinkedHashMap<>();
        for (AllocationState a : restored) {
            byJob.computeIfAbsent(a.jobId(), k -> new ArrayList<>()).add(a);
        }
        List<Restored> out = new ArrayList<>();
        byJob.forEach((jobId, allocs) -> out.add(one(allocs)));
        return out;
    }

    private static Restored one(List<AllocationState> allocs) {
        AllocationState newest = allocs.get(allocs.size() - 1);
        int version = (int) allocs.stream().map(AllocationState::job).distinct().count() - 1;
        boolean stopped = allocs.stream().allMatch(a -> a.desiredStatus() == DesiredStatus.STOP);
        List<String> ids = allocs.stream().map(AllocationState::id).toList();
        AllocationState firstOfVersion = allocs.stream().filter(a -> a.job().equals(newest.job())).findFirst()
                .orElse(newest);
        long at = RaftIndex.ofNanos(firstOfVersion.createTime());
        long modified = stopped ? Math.max(at, allocs.stream().mapToLong(a -> RaftIndex.ofNanos(a.modifyTime()))
                .max().orElse(at)) : at;
        JobRegistry.Entry entry = new JobRegistry.Entry(newest.job(), Math.max(0, version),
                firstOfVersion.createTime(), modified, ids, stopped, RaftIndex.ofNanos(allocs.get(0).createTime()), at);
        List<AllocationState> current = allocs.stream().filter(a -> a.job().equals(newest.job())).toList();
        return new Restored(entry, allocs, current);
    }
}
