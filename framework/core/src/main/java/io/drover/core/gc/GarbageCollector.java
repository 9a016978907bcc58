package io.drover.core.gc;

import io.drover.core.config.ClientConfig;
import io.drover.core.engine.DestroyOutcome;
import io.drover.core.engine.Engine;
import io.drover.core.state.AllocationState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.Timers;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's garbage collector (contract §3). A pass builds {@link GcCandidate}s from the engine's
 * snapshots, lets {@link GcSelector} choose victims, and queues them; at most {@code gc_parallel_destroys}
 * destroys run at a time ({@link Engine#destroy}, which keeps every record). Passes:
 *
 * <ul>
 *   <li>{@link #makeRoomFor}: before placement, on the submitting thread; counts only (no disk I/O) and never
 *       waits for a destroy, so placement is never blocked by GC;</li>
 *   <li>every {@code gc_interval}, on the {@code passes} executor (the agent's {@code drover-gc} thread): the
 *       count, disk and inode thresholds, then the purge of records older than {@code record_retention}
 *       (counted from their {@code Garbage Collected} event);</li>
 *   <li>{@link #collectNow}: {@code system gc}, on the {@code passes} executor.</li>
 * </ul>
 *
 * <p>Thread-safe: pass selection and the destroy queue are guarded by this object's monitor (held briefly,
 * never across I/O other than the snapshot read); destroy completions arrive on engine threads.
 */
public final class GarbageCollector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

    private final Engine engine;
    private final ClientConfig client;
    private final Path dataDir;
    private final DiskProbe probe;
    private final Timers timers;
    private final Executor passes;
    private final Consumer<String> onPurged;

    private final ArrayDeque<GcVictim> pending = new ArrayDeque<>();
    private final Set<String> queued = new HashSet<>();
    /**
     * Allocations a pass saw destroyed (monotonic: a destroyed allocation stays destroyed until its record is
     * purged), so that the pass before every placement skips the thousands of kept records by one set lookup
     * instead of reading each one's task events again (issue 18, docs/performance.md "alloc_get", session 12).
     */
    private final Set<String> destroyedIds = new HashSet<>();
    private int inFlight;
    private int maxInFlight;
    private long destroyed;
    private boolean dispatching;
    private volatile boolean closed;
    private boolean sweepQueued;
    private Timers.Cancellable intervalTimer;

    /**
     * @param dataDir holds {@code alloc/<id>} directories (disk usage is measured there)
     * @param passes runs interval and manual passes (blocking file-system I/O allowed)
     * @param onPurged told the id of each purged record (the agent's job registry forgets it)
     */
    public GarbageCollector(Engine engine, ClientConfig client, Path dataDir, DiskProbe probe, Timers timers,
            Executor passes, Consumer<String> onPurged) {
        this.engine = engine;
        this.client = client;
        this.dataDir = dataDir;
        this.probe = probe;
        this.timers = timers;
        this.passes = passes;
        this.onPurged = onPurged;
    }

    /** Hooks into placement, arms the interval and empties directories a previous agent left in the trash. */
    public void start() {
        engine.beforePlacement(this::makeRoomFor);
        scheduleInterval();
        queueSweep();
    }

    /** Deletes destroyed allocation directories (renamed into the trash by destroys) on the GC thread. */
    private synchronized void queueSweep() {
        if (sweepQueued || closed) {
            return;
        }
        sweepQueued = true;
        submitPass(() -> {
            synchronized (this) {
                sweepQueued = false;
            }
            io.drover.core.engine.AllocDirs.sweepTrash(dataDir);
        });
    }

    private synchronized void scheduleInterval() {
        if (closed) {
            return;
        }
        intervalTimer = timers.schedule(client.gcInterval(), () -> submitPass(() -> {
            try {
                runPass(GcPass.INTERVAL, 0, true);
                purgeExpired();
            } finally {
                scheduleInterval();
            }
        }));
    }

    /** Makes room for {@code incoming} new allocations (count only). Any thread; never waits for a destroy. */
    public void makeRoomFor(int incoming) {
        if (!closed) {
            runPass(GcPass.PLACEMENT, incoming, false);
        }
    }

    /**
     * {@code system gc}: every terminal allocation is destroyed. Returns at once; the pass runs on the GC thread.
     *
     * @return completes with the pass's plan once its victims are queued (not destroyed yet: see {@link #busy})
     */
    public java.util.concurrent.CompletableFuture<GcPlan> collectNow() {
        java.util.concurrent.CompletableFuture<GcPlan> planned = new java.util.concurrent.CompletableFuture<>();
        submitPass(() -> {
            try {
                planned.complete(runPass(GcPass.MANUAL, 0, true));
            } catch (RuntimeException e) {
                planned.completeExceptionally(e);
                throw e;
            }
        });
        return planned;
    }

    private void submitPass(Runnable pass) {
        if (closed) {
            return;
        }
        try {
            passes.execute(() -> {
                try {
                    pass.run();
                } catch (RuntimeException e) {
                    LOG.error("garbage collection pass failed", e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.debug("garbage collection pass not run: shutting down");
        }
    }

    /** One pass: select, log what could not be met, queue the victims. */
    GcPlan runPass(GcPass pass, int incoming, boolean measureDisk) {
        List<AllocationState> all = engine.snapshots(); // GcSelector orders what it picks from
        DiskUsage usage = measureDisk ? probe.usage(dataDir) : DiskUsage.UNKNOWN;
        boolean diskOver = DiskUsage.over(usage.usedBytes(), usage.totalBytes(), client.gcDiskUsageThreshold())
                || DiskUsage.over(usage.usedInodes(), usage.totalInodes(), client.gcInodeUsageThreshold());
        GcPlan plan;
        synchronized (this) {
            List<GcCandidate> candidates = new ArrayList<>(all.size());
            for (AllocationState a : all) {
                if (destroyedIds.contains(a.id()) || queued.contains(a.id())) {
                    continue;
                }
                if (a.destroyedAt() >= 0) {
                    destroyedIds.add(a.id());
                    continue;
                }
                DirUsage du = diskOver && a.terminal() ? DirUsage.of(dataDir.resolve("alloc").resolve(a.id()))
                        : DirUsage.NONE;
                candidates.add(GcCandidates.of(a, client.gcKillPolicy(), du));
            }
            plan = GcSelector.select(candidates, GcLimits.of(client), usage, pass, incoming);
            for (GcVictim v : plan.victims()) {
                pending.add(v);
                queued.add(v.allocId());
            }
            dispatch();
        }
        plan.skipped().forEach(LOG::warn);
        if (!plan.victims().isEmpty()) {
            LOG.info("garbage collection ({}): destroying {} allocation(s)", pass.name().toLowerCase(),
                    plan.victims().size());
        }
        return plan;
    }

    private synchronized void dispatch() {
        if (dispatching) {
            return;
        }
        dispatching = true;
        try {
            while (inFlight < client.gcParallelDestroys() && !pending.isEmpty() && !closed) {
                GcVictim v = pending.poll();
                inFlight++;
                maxInFlight = Math.max(maxInFlight, inFlight);
                engine.destroy(v.allocId(), v.reason()).whenComplete((outcome, err) -> finished(v, outcome, err));
            }
        } finally {
            dispatching = false;
        }
    }

    private synchronized void finished(GcVictim v, DestroyOutcome outcome, Throwable err) {
        inFlight--;
        queued.remove(v.allocId());
        if (err != null) {
            LOG.error("allocation {}: destroy failed", v.allocId(), err);
        } else if (outcome == DestroyOutcome.DESTROYED) {
            destroyed++;
            queueSweep();
        } else if (outcome == DestroyOutcome.SKIPPED_LIVE) {
            LOG.info("allocation {}: garbage collection skipped, it is live again", v.allocId());
        }
        dispatch();
    }

    /** Purges records whose Garbage Collected event is older than record_retention. */
    int purgeExpired() {
        long cutoff = Nanos.of(timers.now()) - client.recordRetention().toNanos();
        int purged = 0;
        for (AllocationState a : engine.snapshots()) {
            long at = a.destroyedAt();
            if (at >= 0 && at <= cutoff && engine.purge(a.id())) {
                forget(a.id());
                onPurged.accept(a.id());
                purged++;
            }
        }
        if (purged > 0) {
            LOG.info("record_retention ({}): purged {} garbage-collected allocation record(s)",
                    io.drover.core.event.GoDuration.format(client.recordRetention()), purged);
        }
        return purged;
    }

    private synchronized void forget(String allocId) {
        destroyedIds.remove(allocId);
    }

    /** Destroys queued or running now. */
    public synchronized int busy() {
        return pending.size() + inFlight;
    }

    /** The most destroys that ever ran at once (never above gc_parallel_destroys). */
    public synchronized int maxParallelSeen() {
        return maxInFlight;
    }

    /** Allocations destroyed since start. */
    public synchronized long destroyedCount() {
        return destroyed;
    }

    /** Stops the interval and drops queued destroys (agent shutdown); running ones finish. Idempotent. */
    @Override
    public synchronized void close() {
        closed = true;
        pending.clear();
        if (intervalTimer != null) {
            intervalTimer.cancel();
        }
    }
}
