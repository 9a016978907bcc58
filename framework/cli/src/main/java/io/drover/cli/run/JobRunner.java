package io.drover.cli.run;

import io.drover.core.engine.Engine;
import io.drover.core.reschedule.Rescheduler;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Submits jobs to an engine and tells when every allocation they placed has ended: each is terminal and no
 * replacement of a failed one is pending. It is the {@link Rescheduler}'s target in {@code drover run}: a failed
 * allocation whose {@code reschedule} policy allows one more attempt gets a replacement after its delay, as the
 * agent places one ({@link #replace}), and the run waits for it.
 *
 * <p>{@link #stopAll()} (the first Ctrl-C; any thread) stops every allocation placed so far and any placed while it
 * runs, cancels the pending replacements and prevents further submissions and replacements; the allocations then
 * end once their poststop tasks have. {@link #killAll} (a second Ctrl-C, or the wait bound) kills every task left
 * at once, poststop tasks included.
 *
 * <p>Threads: {@link #submitAll} on the command's thread; {@link #replace} on the engine pool (the rescheduler's
 * placer); {@link #check} on engine threads (an allocation ended), the placer (a replacement settled) and the
 * command's thread. A replacement and a stop are serialised on this object, so none is placed after a stop.
 */
final class JobRunner implements Rescheduler.Target {
    private final Engine engine;
    private final Rescheduler rescheduler;
    private final List<String> placed = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile boolean submitted;
    private volatile boolean stopping;
    private volatile String killReason;

    private final io.drover.core.spec.placement.NodeFeasibility node;
    private final Consumer<String> lines;

    /**
     * @param rescheduler decides the replacements (a listener of {@code engine}); this becomes its target
     * @param node decides what this machine places of each job (constraints, system jobs); null: everything
     * @param lines gets Nomad's lines for the groups it does not place, and one line per replacement placed
     */
    JobRunner(Engine engine, Rescheduler rescheduler, io.drover.core.spec.placement.NodeFeasibility node,
            Consumer<String> lines) {
        this.engine = engine;
        this.rescheduler = rescheduler;
        this.node = node;
        this.lines = lines;
        rescheduler.target(this);
        rescheduler.onSettled(this::check);
    }

    /** @return completes once every allocation placed has ended (terminal, no replacement pending) */
    CompletableFuture<Void> submitAll(List<Job> jobs) {
        for (Job job : jobs) {
            if (stopping) {
                break;
            }
            Job placeable = job;
            if (node != null) {
                var placement = node.place(job);
                List<String> failures = placement.stream().flatMap(g -> g.failures().stream()).toList();
                if (!failures.isEmpty()) {
                    lines.accept("==> Job \"" + job.id() + "\": failed to place all allocations on this node:");
                    failures.forEach(l -> lines.accept("    " + l));
                }
                placeable = io.drover.core.spec.placement.NodeFeasibility.placeable(job, placement);
            }
            for (AllocationState alloc : engine.submit(placeable)) {
                watch(alloc.id());
            }
        }
        if (stopping) {
            stopPlaced(); // allocations placed while stopAll() ran; stop is idempotent
        }
        if (killReason != null) {
            killPlaced(); // likewise for killAll(); killNow is idempotent
        }
        submitted = true;
        check();
        return ended;
    }

    private void watch(String id) {
        placed.add(id);
        engine.terminal(id).whenComplete((a, e) -> check());
    }

    /**
     * Places the replacement of a failed allocation unless the run is stopping; the rescheduler's placer calls it.
     * Lists it before it starts, so the run waits for it too.
     */
    @Override
    public synchronized Optional<AllocationState> replace(AllocationState failed, Consumer<String> beforeStart) {
        if (stopping) {
            return Optional.empty();
        }
        AllocationState next = engine.replace(failed, id -> {
            beforeStart.accept(id);
            placed.add(id);
        });
        engine.terminal(next.id()).whenComplete((a, e) -> check());
        Rescheduler.Lineage l = rescheduler.lineage(next.id());
        lines.accept("==> Allocation \"" + failed.id() + "\" (" + failed.name() + ") failed: rescheduled as \""
                + next.id() + "\" (reschedule attempt " + l.events().size() + ", after "
                + io.drover.core.event.GoDuration.format(l.events().get(l.events().size() - 1).delay()) + ")");
        return Optional.of(next);
    }

    /** Completes {@link #submitAll}'s future once everything submitted is terminal and nothing is pending. */
    private void check() {
        if (submitted && rescheduler.idle()
                && placed.stream().allMatch(id -> engine.allocation(id).map(a -> a.clientStatus().terminal())
                        .orElse(true))) {
            ended.complete(null);
        }
    }

    /** The latest state of every allocation placed, in placement order (a replacement when it was placed). */
    List<AllocationState> allocations() {
        return placed.stream().map(id -> engine.allocation(id).orElseThrow()).toList();
    }

    /** An allocation's reschedule lineage (previous, next, events). */
    Rescheduler.Lineage lineage(String allocId) {
        return rescheduler.lineage(allocId);
    }

    void stopAll() {
        synchronized (this) {
            stopping = true;
        }
        rescheduler.cancel(placed);
        stopPlaced();
        check();
    }

    /** SIGKILL to every task left, through the engine (events recorded); no poststop task starts any more. */
    void killAll(String reason) {
        synchronized (this) {
            stopping = true;
            killReason = reason;
        }
        rescheduler.cancel(placed);
        killPlaced();
        check();
    }

    private void stopPlaced() {
        placed.forEach(engine::stop);
    }

    private void killPlaced() {
        String reason = killReason;
        placed.forEach(id -> engine.killNow(id, reason));
    }
}
