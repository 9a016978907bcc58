package io.drover.agent;

import io.drover.core.spec.placement.NodeFeasibility;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Nomad's evaluations, as one node has them: every registration and deregistration of a job is one evaluation,
 * decided at once on this node, so it is {@code complete} when it is created (the placement is the registration
 * itself). Kept so that Nomad's clients, which poll an evaluation after {@code PUT /v1/jobs}, find one: the newest
 * {@value #KEPT} in memory; an agent restart keeps the registration of each job's current version (its id and
 * indexes derive from what the allocations record), not the others.
 * Thread-safe, non-blocking.
 */
public final class Evaluations {
    static final int KEPT = 4096;

    /** Nomad's {@code Evaluation} subset. Times are unix nanos. */
    /** @param failed the groups this node could not place in full (Nomad's {@code FailedTGAllocs}) */
    public record Evaluation(String id, String namespace, int priority, String type, String triggeredBy,
            String jobId, long jobModifyIndex, String status, String statusDescription, long createIndex,
            long modifyIndex, long createTime, List<NodeFeasibility.GroupPlacement> failed) {
        public Evaluation {
            failed = List.copyOf(failed);
        }
    }

    private final Map<String, Evaluation> byId = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> order = new ConcurrentLinkedDeque<>();

    /** Records a complete evaluation of {@code jobId}; returns it. */
    public Evaluation record(String jobId, String jobType, int priority, String triggeredBy, long jobModifyIndex,
            long index, List<NodeFeasibility.GroupPlacement> failed) {
        // the id derives from the job and the index, so an evaluation keeps its id across an agent restart
        String id = UUID.nameUUIDFromBytes(("drover-eval/" + jobId + "/" + triggeredBy + "/" + index)
                .getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
        Evaluation e = new Evaluation(id, "default", priority, jobType, triggeredBy,
                jobId, jobModifyIndex, "complete", "", index, index, System.currentTimeMillis() * 1_000_000L, failed);
        if (byId.put(e.id(), e) == null) {
            order.addLast(e.id());
        }
        while (byId.size() > KEPT) {
            String oldest = order.pollFirst();
            if (oldest == null) {
                break;
            }
            byId.remove(oldest);
        }
        return e;
    }

    public Optional<Evaluation> get(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** Every kept evaluation, oldest first. */
    public List<Evaluation> all() {
        List<Evaluation> out = new ArrayList<>(byId.values());
        out.sort(Comparator.comparingLong(Evaluation::createIndex));
        return out;
    }

    /** The evaluations of one job, oldest first. */
    public List<Evaluation> ofJob(String jobId) {
        return all().stream().filter(e -> e.jobId().equals(jobId)).toList();
    }
}
