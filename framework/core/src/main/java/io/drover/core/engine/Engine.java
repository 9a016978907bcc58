package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Runs allocations of jobs on this machine. Thread-safe: any thread may call it; each allocation's state is
 * owned by its own serial executor on the shared bounded pool (see CONCURRENCY.md), so the engine holds
 * thousands of tasks with a fixed number of threads. A facade over its parts: {@link Placement} (placing
 * allocations), {@link EngineRestore} (resuming the store's allocations at start), {@link AllocTable} (the
 * allocations by id), {@link AllocControl} (stop, signal, destroy of one allocation) and {@link EngineListeners}.
 */
public final class Engine implements AutoCloseable {
    private final EngineConfig config;
    private final EngineRuntime runtime;
    private final AllocTable table = new AllocTable();
    private final EngineListeners listeners = new EngineListeners();
    private final Placement placement;
    private final AllocControl control;
    /** Null when state is kept in memory only. */
    private final EngineRestore restore;

    /** An engine that keeps state in memory only ({@code drover run}). */
    public Engine(EngineConfig config, DriverCatalog drivers, EngineRuntime runtime) {
        this(config, drivers, runtime, null, () -> UUID.randomUUID().toString());
    }

    /** @param ids allocation id source (tests use a deterministic one) */
    public Engine(EngineConfig config, DriverCatalog drivers, EngineRuntime runtime, Supplier<String> ids) {
        this(config, drivers, runtime, null, ids);
    }

    /**
     * @param store every change is persisted there before anyone can see it (persist, then publish); null keeps
     *     state in memory only
     * @param ids allocation id source
     */
    public Engine(EngineConfig config, DriverCatalog drivers, EngineRuntime runtime, StateStore store,
            Supplier<String> ids) {
        EngineConfig c = config.services() != null ? config : config.withServices(ServiceRegistry.local());
        this.config = c.variables() != null ? c
                : c.withVariables(io.drover.core.vars.VariableStore.memory(new java.util.concurrent.atomic.AtomicLong()::incrementAndGet));
        listeners.add(this.config.services()); // first: a snapshot's services are registered before it is announced
        this.runtime = runtime;
        this.placement = new Placement(this.config, drivers, runtime, store, ids, table, listeners::publish);
        this.control = new AllocControl(table, store);
        this.restore = store == null ? null : new EngineRestore(this.config, drivers, store, placement);
    }

    /**
     * Resumes every allocation the store recorded (agent start): terminal ones are kept as they are; live tasks
     * are re-attached through their drivers or marked {@code Not Recovered}. Call once, before {@link #submit}.
     *
     * @return how many allocations were resumed
     */
    public int restore() {
        return restore == null ? 0 : restore.restore();
    }

    /**
     * Places {@code count} allocations of every group of a validated job and starts them.
     *
     * @return the new allocations' first snapshots, in group then index order
     */
    public List<AllocationState> submit(Job job) {
        return placement.submit(job);
    }

    /**
     * Places one new allocation in the place of {@code failed}: the same job (version), group and index, so the
     * same name, with a new id; the failed one is left as it is. Nomad's reschedule (the agent's
     * {@code Rescheduler} decides when). Any thread; never blocks.
     *
     * @param beforeStart called with the new id on the calling thread before the allocation starts, so what the
     *     caller records of it (its lineage) is there before any of its snapshots is published
     * @return the new allocation's first snapshot
     * @throws IllegalStateException when the engine is shut down
     */
    public AllocationState replace(AllocationState failed, java.util.function.Consumer<String> beforeStart) {
        return placement.replace(failed, beforeStart);
    }

    /** The engine's clock and timers (the agent's rescheduler arms its delays there). */
    public io.drover.driver.api.Timers timers() {
        return runtime.timers();
    }

    /**
     * Tasks of the allocations that are not terminal yet (placed, or resumed at start-up): what the client's
     * {@code max_tasks} bounds. Thread-safe, lock-free; a snapshot that may be stale by the time it is read.
     */
    public long liveTasks() {
        return table.liveTasks();
    }

    /**
     * The allocation's latest published state. A new allocation is known by id at once, with its first snapshot
     * (no events), before anything of it is on disk: {@link #recorded} tells when its id survives a kill, and
     * {@link #recordedAllocations} lists only those.
     */
    public Optional<AllocationState> allocation(String id) {
        return table.allocation(id);
    }

    /**
     * Completes once a state of each of these allocations is on disk (placement is durable), so that an id given
     * to a client survives a {@code kill -9} of the agent. Unknown ids count as recorded.
     */
    public CompletableFuture<Void> recorded(List<String> allocIds) {
        return table.recorded(allocIds);
    }

    /**
     * Whether a state of this allocation is on disk, so its id survives a {@code kill -9} of the agent: listings
     * show only these (a new allocation is known by id at once, listed once recorded). False for an unknown id.
     */
    public boolean isRecorded(String allocId) {
        return table.isRecorded(allocId);
    }

    /** Every allocation whose placement is on disk ({@link #isRecorded}), oldest first. */
    public List<AllocationState> recordedAllocations() {
        return table.recordedAllocations();
    }

    /**
     * Every allocation's latest snapshot, in no particular order, including new ones not yet on disk: for passes
     * over all of them that need no order (the GC's placement pass runs on every submit and sorts what it
     * selects from itself; sorting every record first cost it most of its time, issue 18). Any thread.
     */
    public List<AllocationState> snapshots() {
        return table.snapshots();
    }

    /** Every allocation, oldest first, including new ones not yet on disk. */
    public List<AllocationState> allocations() {
        return table.allocations();
    }

    /** Completes with the allocation's snapshot once it is terminal (complete or failed). */
    public CompletableFuture<AllocationState> terminal(String allocId) {
        return table.terminal(allocId);
    }

    /** Listeners are called on engine threads after every change, in order per allocation; must not block. */
    public void addListener(AllocationListener listener) {
        listeners.add(listener);
    }

    /**
     * Stops an allocation: kills its tasks in stop order, then runs its poststop tasks. Poststop tasks already
     * running are killed (with escalation) when the kill policy or their {@code gc_kill} says so, else they run
     * to completion. Idempotent.
     */
    public void stop(String allocId) {
        control.stop(allocId);
    }

    /**
     * Kills every live task of an allocation at once with SIGKILL of its whole tree, poststop tasks included, and
     * starts no poststop task that has not started; the events (Killing, Terminated, Killed) are recorded as for
     * any kill. For {@code drover run}, which owns its tasks and must leave none running. Idempotent.
     *
     * @param reason shown in each Killing event
     */
    public void killNow(String allocId, String reason) {
        control.killNow(allocId, reason);
    }

    /**
     * Called by {@link #submit} with the number of allocations about to be placed, on the caller's thread, before
     * they are created (client GC makes room there). The hook must not wait for anything: placement never waits
     * for destroys.
     */
    public void beforePlacement(java.util.function.IntConsumer hook) {
        placement.beforePlacement(hook);
    }

    /** The kill policy destroys and stops follow (contract §3). */
    public io.drover.core.config.GcKillPolicy killPolicy() {
        return config.killPolicy();
    }

    /**
     * Destroys an allocation for client GC (see {@code AllocRunner.destroy}): the record and every event stay,
     * a {@code Garbage Collected} event naming {@code reason} and the kill policy is added, the allocation
     * directory goes. Thread-safe, never blocks; completes on an engine thread.
     */
    public CompletableFuture<DestroyOutcome> destroy(String allocId, io.drover.core.gc.GcReason reason) {
        return control.destroy(allocId, reason);
    }

    /**
     * Forgets a destroyed allocation's record (record_retention expired): gone from {@link #allocations()} at
     * once, and deleted from the store. An allocation GC has not destroyed is not purged.
     *
     * @return whether it was purged
     */
    public boolean purge(String allocId) {
        return control.purge(allocId);
    }

    /** The registry of the {@code provider = "nomad"} services of running tasks. */
    public ServiceRegistry services() {
        return config.services();
    }

    /** The Nomad variables the templates read and {@code /v1/var} serves. */
    public io.drover.core.vars.VariableStore variables() {
        return config.variables();
    }

    /** Sends a signal to a task of an allocation (every running task when {@code task} is null). */
    public void signal(String allocId, String task, String signal) {
        control.signal(allocId, task, signal);
    }

    /**
     * Agent shutdown: no new allocations, no more publishing; tasks are left running, as Nomad's client
     * leaves them for the next agent to re-attach. Idempotent.
     */
    @Override
    public void close() {
        placement.close();
        listeners.close();
    }
}
