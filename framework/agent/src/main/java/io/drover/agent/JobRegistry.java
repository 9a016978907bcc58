package io.drover.agent;

import io.drover.core.reschedule.Rescheduler;
import io.drover.core.config.TaskLimits;
import io.drover.core.engine.Engine;
import io.drover.core.spec.Job;
import io.drover.core.spec.placement.NodeFeasibility;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's registered jobs: job by id, the ids of its allocations, and its status derived from them. Held in
 * memory; after an agent restart it is rebuilt by {@link #restore} from the allocations the state store recorded
 * (each carries its job), so a job that had no allocation (every group {@code count = 0}) or was purged is not
 * restored. The version counter restarts from the number of distinct job definitions seen in the allocations.
 *
 * <p>Re-registering a job id stops every allocation of the previous version, then places the new version's
 * allocations; the old ones stay listed under the job (as Nomad keeps previous versions' allocations), so
 * their states and events remain readable. {@code Version} counts registrations from 0.
 *
 * <p>Thread-safe: writes (register, stop) are serialised on this object; reads are lock-free over immutable
 * {@link Entry} values. Allocations live in the {@link Engine}; this holds only ids. Its parts:
 * {@link RegistryEntries} (the entries held, their kept versions), {@link AllocIndex} (allocation ids),
 * {@link JobAllocations} (reads of a job's allocations), {@link RegistryRestore} (rebuilding entries at agent start),
 * {@link RegisterGuards} (what refuses a registration), {@link RegistryPlacement} (what a registration or a
 * reschedule places, and its evaluation), {@link RegistryReschedules} (the rescheduler's wiring, lineage reads,
 * cancel and forget), {@link RegistryParents} (periodic and parameterized parents: their listener, their restore
 * from the parent-job file, their children).
 */
public final class JobRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(JobRegistry.class);

    /**
     * One registered job.
     *
     * @param submitTime unix nanos of the latest registration
     * @param modifyIndex the registry index of the latest change (register or stop)
     * @param allocIds every allocation placed for the job, oldest first, across versions
     * @param stopped whether the job was stopped ({@code DELETE /v1/job/:id}); Nomad's {@code Stop}
     * @param createIndex the index of the job's first registration (Nomad's {@code CreateIndex})
     * @param jobModifyIndex the index of the registration of this version (Nomad's {@code JobModifyIndex}: a stop
     *     changes {@code modifyIndex} only); what {@code EnforceIndex} compares with
     */
    public record Entry(Job job, int version, long submitTime, long modifyIndex, List<String> allocIds,
            boolean stopped, long createIndex, long jobModifyIndex) {
        public Entry {
            allocIds = List.copyOf(allocIds);
        }

        /** The same version of the job after a change at {@code modifyIndex} of its allocations or its stop. */
        public Entry changed(long modifyIndex, List<String> allocIds, boolean stopped) {
            return new Entry(job, version, submitTime, modifyIndex, allocIds, stopped, createIndex, jobModifyIndex);
        }
    }

    /**
     * The result of a registration: the new entry, the allocations placed for it and its evaluation (null for a
     * registration that changed nothing, as Nomad creates none then either).
     */
    public record Registration(Entry entry, List<AllocationState> placed, Evaluations.Evaluation eval) {}

    /**
     * A registration refused by its {@code EnforceIndex} (Nomad's check-and-set): the job's modify index is not
     * the one the client read. The message is Nomad's.
     */
    public static final class IndexConflictException extends RuntimeException {
        IndexConflictException(String message) {
            super(message, null, false, false);
        }
    }

    /** A registration refused because the agent would hold more live tasks than {@code max_tasks}. */
    public static final class TooManyTasksException extends RuntimeException {
        TooManyTasksException(String message) {
            super(message, null, false, false);
        }
    }

    private final Engine engine;
    private final TaskLimits limits;
    private final RegistryEntries jobs;
    private final AllocIndex allocIndex = new AllocIndex();
    private final RaftIndex index;
    private final Evaluations evals = new Evaluations();
    private final JobAllocations reads;
    private final RegistryPlacement placement;
    private final RegistryReschedules reschedules = new RegistryReschedules();
    private final RegistryParents parents = new RegistryParents();

    /** How many versions of a job {@link #versions} keeps (Nomad's {@code JobTrackedVersions}). */
    static final int TRACKED_VERSIONS = JobVersions.TRACKED;

    /** Nomad's default job priority ({@link Job#DEFAULT_PRIORITY}); a job's own is {@link Job#priority()}. */
    public static final int DEFAULT_PRIORITY = Job.DEFAULT_PRIORITY;

    public JobRegistry(Engine engine) {
        this(engine, TaskLimits.DEFAULTS);
    }

    /** @param limits the client's {@code max_tasks_per_job} and {@code max_tasks}, checked at each registration */
    public JobRegistry(Engine engine, TaskLimits limits) {
        this(engine, limits, RaftIndex.inMemory(), null);
    }

    /**
     * @param index the agent's one index: each change takes a value once it is visible, which wakes blocking
     *     queries; the job's own indexes derive from its submit time ({@link RaftIndex#ofNanos})
     * @param node decides what this node places of a job (constraints, system jobs); null: every allocation
     */
    public JobRegistry(Engine engine, TaskLimits limits, RaftIndex index, NodeFeasibility node) {
        this.engine = engine;
        this.limits = limits;
        this.index = index;
        this.jobs = new RegistryEntries(index);
        this.reads = new JobAllocations(engine);
        this.placement = new RegistryPlacement(engine, node, allocIndex, evals);
    }

    /**
     * Told of every change of a parent job (periodic or parameterized: {@link io.drover.core.spec.JobLaunch#parent}):
     * its registration, stop (the entry) or purge (empty). Called under the registry's lock, on the thread that
     * made the change; may block briefly (it records the parent on disk).
     */
    @FunctionalInterface
    public interface ParentListener {
        void changed(String jobId, Optional<Entry> entry);
    }

    /** Sets the one listener of parent-job changes (the agent's {@code ParentJobs}). */
    public void parentListener(ParentListener listener) {
        parents.listen(listener);
    }

    /**
     * Told of every registration that placed or changed a job and of every stop, once the registry holds the new
     * entry ({@link #job} returns it). Called under the registry's lock, on the thread that made the change, so that
     * the call comes after the change is visible and before the next change of the registry; must not block. The
     * event stream's Job events come from it: an allocation may end, and its last update be published, before the
     * registration that placed it holds the job (its updates then find no job to announce).
     */
    @FunctionalInterface
    public interface JobListener {
        void changed(String jobId);
    }

    private volatile JobListener jobListener = id -> {};
    private volatile java.util.function.Consumer<List<AllocationState>> placedHook = placed -> {};

    /** Sets the one listener of registrations and stops (the event stream's broker). */
    public void jobListener(JobListener listener) {
        this.jobListener = listener;
    }

    /** Tests: runs under the lock after the engine placed a registration's allocations, before the entry is held. */
    void placedHook(java.util.function.Consumer<List<AllocationState>> hook) {
        this.placedHook = hook;
    }

    /**
     * Puts back a parent job recorded by the agent's parent-job file (agent start, after {@link #restore}): a parent
     * has no allocation, so the allocation records cannot bring it back.
     */
    public synchronized void restoreParent(Entry entry) {
        jobs.keep(RegistryParents.restored(entry, jobs.get(entry.job().id())));
    }

    /** The jobs a parent launched (those whose {@code ParentID} is {@code parentId}), sorted by id. */
    public List<Entry> children(String parentId) {
        return RegistryParents.children(jobs.all(), parentId);
    }

    /**
     * Reschedules failed allocations of this registry's jobs ({@link Rescheduler}); set once, before any
     * registration. Without one (tests of other parts) nothing is rescheduled.
     */
    void rescheduler(Rescheduler r) {
        reschedules.set(r, this::replace);
    }

    /** The reschedule lineage of an allocation (Nomad's {@code PreviousAllocation}, ...); empty without one. */
    public Rescheduler.Lineage lineage(String allocId) {
        return reschedules.lineage(allocId);
    }

    /** Whether a replacement of this failed allocation is armed (its delay running) and not placed yet. */
    public boolean reschedulePending(String allocId) {
        return reschedules.pending(allocId);
    }

    /**
     * Places a replacement of a failed allocation ({@link Rescheduler.Target}) if its job is still registered,
     * not stopped, with the failed one's version; under this object's lock, so a stop or re-registration either
     * comes first (nothing is placed) or stops the replacement with the rest.
     */
    private synchronized Optional<AllocationState> replace(AllocationState failed,
            java.util.function.Consumer<String> beforeStart) {
        Entry e = jobs.get(failed.jobId());
        if (e == null || e.stopped() || !e.job().equals(failed.job())) {
            return Optional.empty();
        }
        AllocationState placed = placement.replace(failed, beforeStart);
        List<String> ids = new ArrayList<>(e.allocIds());
        ids.add(placed.id());
        jobs.change(e, ids, false);
        return Optional.of(placed);
    }

    /** The evaluations of the registrations and stops (Nomad's {@code /v1/evaluations}). */
    public Evaluations evaluations() {
        return evals;
    }

    public TaskLimits limits() {
        return limits;
    }

    /** Completes once every allocation the registration placed is on disk (see {@code Engine.recorded}). */
    public java.util.concurrent.CompletableFuture<Void> recorded(Registration reg) {
        return engine.recorded(reg.placed().stream().map(AllocationState::id).toList());
    }

    /**
     * Registers (or re-registers) a validated job and places its allocations. Registering a job equal to the
     * registered one (same id and content, not stopped) is a no-op, as in Nomad: it returns the registered entry
     * (same version and modify index) and its current allocations, and places nothing. So a client that retries
     * a registration whose answer it lost (a timeout, a 503 while data_dir refused writes) never runs the job
     * twice.
     *
     * @throws IllegalStateException when the engine is shut down
     * @throws TooManyTasksException when the job is over {@code max_tasks_per_job}, or its tasks and the live ones
     *     would be over {@code max_tasks} (checked under this object's lock, so concurrent registrations cannot
     *     pass the bound together); nothing is stopped or placed then
     */
    public synchronized Registration register(Job job) {
        return register(job, java.util.OptionalLong.empty());
    }

    /**
     * {@link #register(Job)} with Nomad's {@code EnforceIndex}: with {@code enforce} present, the job is registered
     * only if its current {@code JobModifyIndex} is that value (0: only if there is no such job, or it was
     * purged).
     *
     * @throws IndexConflictException when the index does not match; nothing is stopped or placed then
     */
    public synchronized Registration register(Job job, java.util.OptionalLong enforce) {
        if (enforce.isPresent()) {
            RegisterGuards.enforceIndex(jobs.get(job.id()), enforce.getAsLong());
        }
        RegisterGuards.taskLimits(limits, engine.liveTasks(), job);
        Entry old = jobs.get(job.id());
        if (old != null && !old.stopped() && old.job().equals(job)) {
            LOG.info("job {}: registered again unchanged (version {}); nothing placed", job.id(), old.version());
            return new Registration(old, reads.current(old), null);
        }
        List<String> ids = new ArrayList<>();
        int version = 0;
        if (old != null) {
            reschedules.cancel(old);
            old.allocIds().forEach(engine::stop);
            ids.addAll(old.allocIds());
            version = old.version() + 1;
            LOG.info("job {}: re-registered; stopping {} allocation(s) of version {}: {}", job.id(),
                    old.allocIds().size(), old.version(), old.allocIds());
        }
        RegistryPlacement.Placed placing = placement.place(job);
        List<AllocationState> placed = placing.allocs();
        placedHook.accept(placed);
        placed.forEach(a -> ids.add(a.id()));
        // the job's indexes derive from its submit time, the creation time of its first allocation, which the
        // allocations record: the same after a restart
        long submit = placed.isEmpty() ? System.currentTimeMillis() * 1_000_000L : placed.get(0).createTime();
        long at = Math.max(RaftIndex.ofNanos(submit), old == null ? 0 : old.modifyIndex() + 1);
        Entry entry = new Entry(job, version, submit, at, ids, false, old != null ? old.createIndex() : at, at);
        jobs.keep(entry);
        Evaluations.Evaluation eval = placement.evaluate(job, placing, at);
        index.next(); // visible now: wakes blocking queries
        parents.registered(old, entry);
        jobListener.changed(job.id());
        return new Registration(entry, placed, eval);
    }

    /**
     * Rebuilds the registry from restored allocations (agent start, before any registration): per job id, the
     * job of its newest allocation, every allocation id oldest first, stopped when every allocation's desired
     * status is {@code stop}.
     *
     * @param restored the engine's allocations, oldest first
     */
    public synchronized void restore(List<AllocationState> restored) {
        RegistryRestore.into(restored, jobs::keep, allocIndex, evals);
    }

    /** Stops every allocation of a job and marks it stopped. Idempotent. */
    public synchronized Optional<Entry> stop(String jobId) {
        Entry old = jobs.get(jobId);
        if (old == null) {
            return Optional.empty();
        }
        reschedules.cancel(old);
        old.allocIds().forEach(engine::stop);
        long at = index.take();
        Entry stopped = old.changed(at, old.allocIds(), true);
        jobs.put(stopped);
        evals.record(jobId, old.job().type().wireName(), old.job().priority(), "job-deregister",
                old.jobModifyIndex(), at, List.of());
        index.publish(at);
        parents.stopped(stopped);
        jobListener.changed(jobId);
        LOG.info("job {}: stopped {} allocation(s): {}", jobId, old.allocIds().size(), old.allocIds());
        return Optional.of(stopped);
    }

    /**
     * Stops every allocation of a job and forgets the job (Nomad's {@code purge=true}); its allocations stay
     * readable by id until GC.
     */
    public synchronized Optional<Entry> purge(String jobId) {
        Optional<Entry> stopped = stop(jobId);
        stopped.ifPresent(e -> {
            jobs.drop(jobId);
            parents.purged(e);
        });
        return stopped;
    }

    /**
     * Forgets a purged allocation (record_retention expired): it leaves its job's list and the id prefix index;
     * a job left with no allocation is forgotten too (after an agent restart it would not come back either).
     * Idempotent.
     */
    public synchronized void forget(String allocId) {
        reschedules.forget(allocId);
        String jobId = allocIndex.remove(allocId);
        if (jobId != null && jobs.removeAlloc(jobId, allocId)) {
            LOG.info("job {}: forgotten, its last allocation record was purged", jobId);
        }
    }

    /**
     * The versions of a job this agent registered, newest first (at most {@value #TRACKED_VERSIONS}; after an
     * agent restart only the current one).
     */
    public List<Entry> versions(String jobId) {
        return jobs.versions(jobId);
    }

    /** The id of the evaluation that placed an allocation ("" when this agent's memory has none: restored). */
    public String evalOf(String allocId) {
        return allocIndex.evalOf(allocId);
    }

    /** The job version an allocation runs: the kept version with its job, else the job's current version. */
    public int versionOf(AllocationState alloc) {
        return jobs.versionOf(alloc);
    }

    public Optional<Entry> job(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** Every job, sorted by id. */
    public List<Entry> jobs() {
        return jobs.sorted();
    }

    /** Current snapshots of a job's allocations, oldest first. */
    public List<AllocationState> allocations(Entry entry) {
        return reads.all(entry);
    }

    /**
     * The job's allocations a client may list: those on disk ({@link Engine#isRecorded}), oldest first. One still
     * being recorded is left out, so a listing never shows an allocation a {@code kill -9} could erase.
     */
    public List<AllocationState> listedAllocations(Entry entry) {
        return reads.listed(entry);
    }

    /**
     * A job's status as Nomad reports it: {@code dead} when it has no live allocation (all terminal, or none),
     * otherwise {@code running}.
     */
    public String status(Entry entry) {
        return reads.status(entry);
    }

    /** Allocation ids starting with {@code prefix}, in id order, at most {@code limit} of them. */
    public List<String> allocIdsWithPrefix(String prefix, int limit) {
        return allocIndex.withPrefix(prefix, limit);
    }

    /**
     * Counts of a job's listed allocations ({@link #listedAllocations}) by client status, for the list stub's
     * summary: a count never includes an allocation a listing would leave out.
     */
    public Map<ClientStatus, Long> summary(Entry entry) {
        return reads.summary(entry);
    }
}
