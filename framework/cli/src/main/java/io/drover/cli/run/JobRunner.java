package io.drover.cli.run;

import io.drover.core.engine.Engine;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Submits jobs to an engine and tells when every allocation they placed is terminal. {@link #stopAll()} (the
 * first Ctrl-C; any thread) stops every allocation placed so far and any placed while it runs, and prevents
 * further submissions; the allocations then end once their poststop tasks have. {@link #killAll} (a second Ctrl-C,
 * or the wait bound) kills every task left at once, poststop tasks included.
 */
final class JobRunner {
    private final Engine engine;
    private final List<String> placed = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;
    private volatile String killReason;

    private final io.drover.core.spec.placement.NodeFeasibility node;
    private final java.util.function.Consumer<String> notPlaced;

    JobRunner(Engine engine) {
        this(engine, null, line -> { });
    }

    /**
     * @param node decides what this machine places of each job (constraints, system jobs); null: everything
     * @param notPlaced gets Nomad's lines for the groups it does not place
     */
    JobRunner(Engine engine, io.drover.core.spec.placement.NodeFeasibility node,
            java.util.function.Consumer<String> notPlaced) {
        this.engine = engine;
        this.node = node;
        this.notPlaced = notPlaced;
    }

    /** @return completes once every allocation placed is terminal (complete or failed) */
    CompletableFuture<Void> submitAll(List<Job> jobs) {
        List<CompletableFuture<AllocationState>> futures = new ArrayList<>();
        for (Job job : jobs) {
            if (stopping) {
                break;
            }
            Job placeable = job;
            if (node != null) {
                var placement = node.place(job);
                List<String> lines = placement.stream().flatMap(g -> g.failures().stream()).toList();
                if (!lines.isEmpty()) {
                    notPlaced.accept("==> Job \"" + job.id() + "\": failed to place all allocations on this node:");
                    lines.forEach(l -> notPlaced.accept("    " + l));
                }
                placeable = io.drover.core.spec.placement.NodeFeasibility.placeable(job, placement);
            }
            for (AllocationState alloc : engine.submit(placeable)) {
                placed.add(alloc.id());
                futures.add(engine.terminal(alloc.id()));
            }
        }
        if (stopping) {
            stopPlaced(); // allocations placed while stopAll() ran; stop is idempotent
        }
        if (killReason != null) {
            killPlaced(); // likewise for killAll(); killNow is idempotent
        }
        return CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new));
    }

    /** The latest state of every allocation placed, in placement order (jobs in the given order). */
    List<AllocationState> allocations() {
        return placed.stream().map(id -> engine.allocation(id).orElseThrow()).toList();
    }

    void stopAll() {
        stopping = true;
        stopPlaced();
    }

    /** SIGKILL to every task left, through the engine (events recorded); no poststop task starts any more. */
    void killAll(String reason) {
        stopping = true;
        killReason = reason;
        killPlaced();
    }

    private void stopPlaced() {
        placed.forEach(engine::stop);
    }

    private void killPlaced() {
        String reason = killReason;
        placed.forEach(id -> engine.killNow(id, reason));
    }
}
