package io.drover.agent;

import io.drover.core.engine.Engine;
import io.drover.core.spec.Job;
import io.drover.core.spec.placement.NodeFeasibility;
import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the registry places on this node, and the evaluation that says so: a job version's allocations (the groups
 * {@link NodeFeasibility} keeps; none for a parent, which only launches children), a failed allocation's
 * replacement, each indexed under its job and named with the evaluation that placed it ({@link AllocIndex}).
 *
 * <p>Called by the registry under its lock, on the thread that registers (an API thread, {@code drover-periodic})
 * or, for a replacement, the engine pool thread its reschedule timer handed it to (CONCURRENCY.md); never blocks
 * (in-memory placement: the engine only queues the allocations' start). Not idempotent: each call places. The
 * entries themselves stay in {@link JobRegistry}.
 */
final class RegistryPlacement {
    /** The registry's logger: a placement's lines read as they did before this class existed. */
    private static final Logger LOG = LoggerFactory.getLogger(JobRegistry.class);

    /** A registration's placement: what this node decided per group, and the allocations placed, in order. */
    record Placed(List<NodeFeasibility.GroupPlacement> groups, List<AllocationState> allocs) {}

    private final Engine engine;
    private final NodeFeasibility node;
    private final AllocIndex allocIndex;
    private final Evaluations evals;

    /** @param node decides what this node places of a job; null: every allocation */
    RegistryPlacement(Engine engine, NodeFeasibility node, AllocIndex allocIndex, Evaluations evals) {
        this.engine = engine;
        this.node = node;
        this.allocIndex = allocIndex;
        this.evals = evals;
    }

    /** Places the allocations of {@code job} this node can run (none for a parent), each indexed under the job. */
    Placed place(Job job) {
        if (job.launch().parent()) { // periodic or parameterized: runs nothing, launches children
            return new Placed(List.of(), List.of());
        }
        List<NodeFeasibility.GroupPlacement> groups = node == null ? List.of() : node.place(job);
        List<AllocationState> placed = engine.submit(NodeFeasibility.placeable(job, groups));
        placed.forEach(a -> allocIndex.add(a.id(), job.id()));
        return new Placed(groups, placed);
    }

    /**
     * Records the registration's {@code job-register} evaluation at index {@code at} (with the groups this node
     * could not place in full, each of whose failures is logged) and names it as what placed the allocations.
     *
     * @return the evaluation; null for a parent: Nomad creates none, its children's registrations have theirs
     */
    Evaluations.Evaluation evaluate(Job job, Placed placed, long at) {
        if (job.launch().parent()) {
            return null;
        }
        Evaluations.Evaluation eval = evals.record(job.id(), job.type().wireName(), job.priority(), "job-register",
                at, at + 1, placed.groups().stream().filter(g -> g.placeable() < g.count()).toList());
        placed.groups().forEach(g -> g.failures().forEach(line -> LOG.info("job {}: {}", job.id(), line)));
        placed.allocs().forEach(a -> allocIndex.placedBy(a.id(), eval.id()));
        return eval;
    }

    /**
     * Places the replacement of a failed allocation, indexed under its job and named with the evaluation that
     * placed the failed one (a reschedule creates no registration).
     */
    AllocationState replace(AllocationState failed, Consumer<String> beforeStart) {
        AllocationState placed = engine.replace(failed, beforeStart);
        allocIndex.add(placed.id(), failed.jobId());
        allocIndex.placedBy(placed.id(), allocIndex.evalOf(failed.id()));
        return placed;
    }
}
