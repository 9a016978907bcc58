package io.drover.agent;

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
 * {@value #KEPT} in memory (an agent restart forgets them; the jobs and allocations they placed stay).
 * Thread-safe, non-blocking.
 */
public final class Evaluations {
    static final int KEPT = 4096;

    /** Nomad's {@code Evaluation} subset. Times are unix nanos. */
    public record Evaluation(String id, String namespace, int priority, String type, String triggeredBy,
            String jobId, long jobModifyIndex, String status, String statusDescription, long createIndex,
            long modifyIndex, long createTime) {}

    private final Map<String, Evaluation> byId = new ConcurrentHashMap<>();
    private final ConcurrentLinkedDeque<String> order = new ConcurrentLinkedDeque<>();

    /** Records a complete evaluation of {@code jobId}; returns it. */
    public Evaluation record(String jobId, String jobType, int priority, String triggeredBy, long jobModifyIndex,
            long index) {
        Evaluation e = new Evaluation(UUID.randomUUID().toString(), "default", priority, jobType, triggeredBy,
                jobId, jobModifyIndex, "complete", "", index, index, System.currentTimeMillis() * 1_000_000L);
        byId.put(e.id(), e);
        order.addLast(e.id());
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
