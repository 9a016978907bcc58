package io.drover.agent.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.drover.agent.AllocIndexes;
import io.drover.agent.JobRegistry;
import io.drover.agent.NodeInfo;
import io.drover.core.state.AllocationState;

/**
 * An allocation in Nomad's {@code Allocation} / {@code AllocListStub} shape: {@link AllocationState}'s fields plus
 * what Nomad's clients and CLI dereference — {@code Namespace}, {@code EvalID}, {@code NodeID}, {@code NodeName},
 * {@code JobVersion}, {@code CreateIndex}, {@code ModifyIndex}, {@code AllocModifyIndex}, and on a single read the
 * whole {@code Job}. Pure apart from reading the registry and the indexes; any thread.
 */
final class AllocJson {
    private final JobRegistry jobs;
    private final AllocIndexes indexes;
    private final NodeInfo node;

    AllocJson(JobRegistry jobs, AllocIndexes indexes, NodeInfo node) {
        this.jobs = jobs;
        this.indexes = indexes;
        this.node = node;
    }

    /** The list stub (no {@code Job}). */
    ObjectNode stub(AllocationState a) {
        ObjectNode o = Json.MAPPER.valueToTree(a);
        AllocIndexes.Indexes ix = AllocIndexes.of(a);
        o.put("Namespace", "default");
        o.put("EvalID", jobs.evalOf(a.id()));
        o.put("NodeID", node.id());
        o.put("NodeName", node.name());
        o.put("JobType", a.job().type().wireName());
        o.put("JobVersion", jobs.versionOf(a));
        o.put("CreateIndex", ix.createIndex());
        o.put("ModifyIndex", ix.modifyIndex());
        o.put("AllocModifyIndex", ix.allocModifyIndex());
        reschedule(o, jobs.lineage(a.id()));
        return o;
    }

    /**
     * The full allocation: the stub plus its {@code Job}, as Nomad's {@code GET /v1/allocation/:id}. Only for
     * serialising: {@code Job} is a POJO node (a map), not a tree.
     */
    ObjectNode full(AllocationState a) {
        ObjectNode o = stub(a);
        // the Job as a POJO node: written straight into the response's bytes (its one consumer), not first copied
        // into a tree of nodes (7.5 % of what the agent allocated under churn, docs/performance.md alloc_get)
        jobs.job(a.jobId()).ifPresent(e -> o.putPOJO("Job", JobJson.full(jobs, e, a.job(), jobs.versionOf(a))));
        return o;
    }

    /**
     * Nomad's reschedule fields: {@code PreviousAllocation}, {@code NextAllocation} ("" when none, as Nomad's
     * omitempty-less strings) and {@code RescheduleTracker} (null when the allocation is no replacement).
     */
    private static void reschedule(ObjectNode o, io.drover.core.reschedule.Rescheduler.Lineage l) {
        o.put("PreviousAllocation", l.previous() == null ? "" : l.previous());
        o.put("NextAllocation", l.next() == null ? "" : l.next());
        if (l.events().isEmpty()) {
            o.putNull("RescheduleTracker");
            return;
        }
        ObjectNode tracker = o.putObject("RescheduleTracker");
        var events = tracker.putArray("Events");
        for (var e : l.events()) {
            ObjectNode ev = events.addObject();
            ev.put("RescheduleTime", e.rescheduleTime());
            ev.put("PrevAllocID", e.prevAllocId());
            ev.put("PrevNodeID", e.prevNodeId());
            ev.put("Delay", e.delay().toNanos());
        }
        tracker.put("LastReschedule", "ok");
    }
}
