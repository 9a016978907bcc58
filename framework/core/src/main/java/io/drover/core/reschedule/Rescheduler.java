package io.drover.core.reschedule;

import io.drover.core.engine.AllocationListener;
import io.drover.core.spec.ReschedulePolicy;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Nomad's {@code reschedule} on this one node: when an allocation of a service or batch job ends with client
 * status {@code failed} while it should run, and its group's policy ({@link ReschedulePolicy}) allows one more
 * attempt, a replacement (same job version, group and index; a new id) is placed after the policy's delay,
 * counted from the failure (its last task's {@code FinishedAt}, Nomad's {@code LastEventTime}). The failed
 * allocation stays as it is. The replacement records {@code PreviousAllocation} and the failed one's
 * {@code RescheduleTracker} events plus one; the failed one records {@code NextAllocation} ({@link #lineage}).
 *
 * <p>Threads: {@link #onUpdate} runs on engine threads (allocations in parallel) and only decides and arms a timer
 * on the engine's {@link Timers}; the timer's action (on {@code drover-timer}) only hands the placement to
 * {@code placer} (the engine pool in the agent), which asks the {@link Target} (the job registry, under its lock)
 * to place it; the replacement stays {@link #pending} until the target returned, then {@link #onSettled} runs.
 * {@link #cancel} (a job stop or re-registration, under the registry's lock) and {@link #forget} may run on any
 * thread. State is in concurrent maps; each allocation is decided once ({@code decided}). Nothing here blocks.
 *
 * <p>Used by the agent (its target is the job registry) and by {@code drover run} (its target is the run's job
 * runner, which waits until every allocation has ended and nothing is pending).
 *
 * <p>An agent restart: the lineage is rebuilt from the allocations ({@link #restore}); a pending reschedule (a
 * failed allocation without a replacement, of a job still registered) is armed again from its failure time, so a
 * delay already passed places at once.
 */
public final class Rescheduler implements AllocationListener {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Rescheduler.class);
    /** Where replacements are placed: the registry, which places only for a job still registered as it was. */
    public interface Target {
        /**
         * Places a replacement of {@code failed} if its job is still registered with that version and not
         * stopped; {@code beforeStart} gets the new id before it starts. Empty when nothing was placed.
         */
        Optional<AllocationState> replace(AllocationState failed, java.util.function.Consumer<String> beforeStart);
    }

    /** Nomad's {@code RescheduleEvent}: one earlier replacement in an allocation's lineage. */
    public record Event(long rescheduleTime, String prevAllocId, String prevNodeId, Duration delay) {}

    /** What an allocation's JSON shows of its lineage; null ids and an empty list when it has none. */
    public record Lineage(String previous, String next, List<Event> events) {}

    private final Timers timers;
    private final Executor placer;
    private final String nodeId;
    private volatile Target target;
    private volatile Runnable settled = () -> { };
    private final Map<String, String> previous = new ConcurrentHashMap<>();
    private final Map<String, String> next = new ConcurrentHashMap<>();
    private final Map<String, List<Event>> events = new ConcurrentHashMap<>();
    private final Map<String, Boolean> decided = new ConcurrentHashMap<>();
    private final Map<String, Armed> pending = new ConcurrentHashMap<>();

    /**
     * @param timers where the delays are armed (the engine's {@link io.drover.core.engine.Engine#timers})
     * @param placer runs the placements (the engine pool): a timer thread never places
     * @param nodeId the node the reschedule events name as the previous one
     */
    public Rescheduler(Timers timers, Executor placer, String nodeId) {
        this.timers = timers;
        this.placer = placer;
        this.nodeId = nodeId;
    }

    /** Sets where replacements go (the registry); before any allocation fails. */
    public void target(Target t) {
        this.target = t;
    }

    @Override
    public void onUpdate(AllocationState a) {
        if (a.clientStatus() != ClientStatus.FAILED || a.desiredStatus() != DesiredStatus.RUN
                || decided.putIfAbsent(a.id(), Boolean.TRUE) != null) {
            return;
        }
        arm(a);
    }

    /** Arms the replacement of a failed allocation if its policy allows one; the delay counts from its failure. */
    private void arm(AllocationState a) {
        ReschedulePolicy policy = ReschedulePolicy.of(a.job(), a.group());
        List<Event> earlier = events.getOrDefault(a.id(), List.of());
        List<ReschedulePolicy.Attempt> attempts = earlier.stream()
                .map(e -> new ReschedulePolicy.Attempt(e.rescheduleTime(), e.delay())).toList();
        long failTime = a.terminalAt() > 0 ? a.terminalAt() : a.modifyTime();
        if (!policy.eligible(attempts, failTime)) {
            return;
        }
        Duration delay = policy.nextDelay(attempts, failTime);
        Duration wait = Duration.ofNanos(failTime + delay.toNanos() - Nanos.of(timers.now()));
        LOG.info("allocation {} failed: rescheduling it after {} (attempt {} of its lineage)", a.id(), delay,
                earlier.size() + 1);
        // in the map before the timer exists: a delay already passed fires at once, maybe before schedule returns
        Armed armed = new Armed();
        pending.put(a.id(), armed);
        armed.timer = timers.schedule(wait, () -> {
            try {
                placer.execute(() -> place(a, armed, earlier, delay));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                LOG.info("allocation {}: not rescheduled, the engine is shutting down", a.id());
            }
        });
    }

    /** One armed replacement; {@code timer} is set once scheduled (a cancel before that finds it removed). */
    private static final class Armed {
        volatile Timers.Cancellable timer;

        void cancel() {
            Timers.Cancellable t = timer;
            if (t != null) {
                t.cancel();
            }
        }
    }

    private void place(AllocationState failed, Armed armed, List<Event> earlier, Duration delay) {
        Target t = target;
        // still pending while the target places: whoever waits for idle() never sees a gap between the failed
        // allocation and its replacement
        try {
            if (pending.get(failed.id()) != armed || t == null) {
                return; // cancelled meanwhile
            }
            place(t, failed, earlier, delay);
        } catch (IllegalStateException e) { // the engine shut down meanwhile
            LOG.info("allocation {}: not rescheduled: {}", failed.id(), e.getMessage());
        } finally {
            pending.remove(failed.id(), armed);
            settled.run();
        }
    }

    /**
     * Sets what runs each time an armed replacement has settled: placed, or found cancelled or its target gone
     * (on the placer's thread, after {@link #pending} turned false for it); before any allocation fails. It must
     * not block. {@code drover run} checks there whether every allocation has ended.
     */
    public void onSettled(Runnable r) {
        this.settled = r;
    }

    /** Whether no replacement is armed or being placed. Any thread. */
    public boolean idle() {
        return pending.isEmpty();
    }

    private void place(Target target, AllocationState failed, List<Event> earlier, Duration delay) {
        target.replace(failed, id -> {
            List<Event> carried = new ArrayList<>(earlier);
            carried.add(new Event(Nanos.of(timers.now()), failed.id(), nodeId, delay));
            events.put(id, List.copyOf(carried));
            previous.put(id, failed.id());
            next.put(failed.id(), id);
        });
    }

    /** Cancels the pending replacements of these allocations (their job stopped or re-registered). Idempotent. */
    public void cancel(Collection<String> allocIds) {
        for (String id : allocIds) {
            Armed c = pending.remove(id);
            if (c != null) {
                c.cancel();
            }
        }
    }

    /** Forgets a purged allocation (record_retention). */
    public void forget(String allocId) {
        cancel(List.of(allocId));
        decided.remove(allocId);
        previous.remove(allocId);
        next.remove(allocId);
        events.remove(allocId);
    }

    /** Whether a replacement of this allocation is armed and not placed yet. */
    public boolean pending(String allocId) {
        return pending.containsKey(allocId);
    }

    /** The lineage of an allocation: null ids and no events when it has none. Any thread. */
    public Lineage lineage(String allocId) {
        return new Lineage(previous.get(allocId), next.get(allocId), events.getOrDefault(allocId, List.of()));
    }

    /**
     * Agent start, after the registry was restored: rebuilds the lineage from the allocations and arms what was
     * pending. Allocations of one job version, group and index, oldest first, form the lineage: each failed one
     * followed by a later one was replaced by it (a re-registration of the same job places nothing), unless it was
     * stopped before that one was placed (its last change, the stop, is older). The delays of the rebuilt events
     * are the policy's, as they were when placed.
     *
     * @param byJob the restored allocations of each registered, not stopped job, oldest first
     */
    public void restore(Collection<List<AllocationState>> byJob) {
        for (List<AllocationState> allocs : byJob) {
            List<io.drover.core.spec.Job> versions = new ArrayList<>();
            Map<String, List<AllocationState>> chains = new java.util.LinkedHashMap<>();
            for (AllocationState a : allocs) {
                int v = versions.indexOf(a.job());
                if (v < 0) {
                    versions.add(a.job());
                    v = versions.size() - 1;
                }
                chains.computeIfAbsent(v + "/" + a.taskGroup() + "[" + a.index() + "]", k -> new ArrayList<>())
                        .add(a);
            }
            chains.values().forEach(this::restoreChain);
        }
    }

    private void restoreChain(List<AllocationState> chain) {
        List<Event> carried = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            AllocationState a = chain.get(i);
            if (!carried.isEmpty()) {
                events.put(a.id(), List.copyOf(carried));
            }
            if (i + 1 < chain.size()) {
                AllocationState n = chain.get(i + 1);
                // a failed one stopped before the next was placed (its job stopped, then registered again with
                // the same content) was not replaced by it
                boolean stoppedFirst = a.desiredStatus() == DesiredStatus.STOP && n.createTime() >= a.modifyTime();
                if (a.clientStatus() != ClientStatus.FAILED || stoppedFirst) {
                    carried.clear();
                    continue;
                }
                decided.put(a.id(), Boolean.TRUE);
                previous.put(n.id(), a.id());
                next.put(a.id(), n.id());
                ReschedulePolicy policy = ReschedulePolicy.of(a.job(), a.group());
                long failTime = a.terminalAt() > 0 ? a.terminalAt() : a.modifyTime();
                Duration delay = policy.nextDelay(carried.stream()
                        .map(e -> new ReschedulePolicy.Attempt(e.rescheduleTime(), e.delay())).toList(), failTime);
                carried.add(new Event(n.createTime(), a.id(), nodeId, delay));
            } else {
                onUpdate(a); // the newest of its lineage: failed and unreplaced means pending
            }
        }
    }
}
