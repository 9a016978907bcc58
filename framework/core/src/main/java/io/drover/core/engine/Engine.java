package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.store.StateStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs allocations of jobs on this machine. Thread-safe: any thread may call it; each allocation's state is
 * owned by its own serial executor on the shared bounded pool (see CONCURRENCY.md), so the engine holds
 * thousands of tasks with a fixed number of threads.
 */
public final class Engine implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final EngineConfig config;
    private final DriverCatalog drivers;
    private final EngineRuntime runtime;
    private final Map<String, AllocRunner> allocs = new ConcurrentHashMap<>();
    private final List<AllocationListener> listeners = new CopyOnWriteArrayList<>();
    private final Supplier<String> ids;
    private final StateStore store;
    private final PortAllocator ports;
    private volatile boolean closed;
    private volatile java.util.function.IntConsumer beforePlacement = n -> {};
    /** Tasks of allocations placed or resumed and not terminal yet ({@link #liveTasks}). */
    private final java.util.concurrent.atomic.AtomicLong liveTasks = new java.util.concurrent.atomic.AtomicLong();

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
        this.drivers = drivers;
        this.runtime = runtime;
        this.store = store;
        this.ids = ids;
        this.ports = new PortAllocator(config.dynamicPorts());
    }

    /**
     * Resumes every allocation the store recorded (agent start): terminal ones are kept as they are; live tasks
     * are re-attached through their drivers or marked {@code Not Recovered}. Call once, before {@link #submit}.
     *
     * @return how many allocations were resumed
     */
    public int restore() {
        if (store == null) {
            return 0;
        }
        List<AllocationState> stored = store.load();
        Set<String> unrecorded = killUnrecordedRuns(stored);
        for (AllocationState s : stored) {
            TaskGroup group = s.job().group(s.taskGroup()).orElseThrow(() -> new IllegalStateException(
                    "stored allocation " + s.id() + " names group " + s.taskGroup() + " missing from its job"));
            AllocRunner runner = new AllocRunner(s.id(), s.job(), group, s.index(), config, drivers, runtime, store,
                    this::publish, s.createTime());
            allocs.put(s.id(), runner);
            if (s.allocatedResources() != null) {
                runner.network(new PortAllocator.Assignment(s.allocatedResources(), null));
                if (!s.terminal()) {
                    ports.reserve(s.id(), s.allocatedResources());
                    runner.terminal().whenComplete((done, e) -> ports.release(s.id()));
                }
            }
            if (!s.terminal()) {
                countLive(runner, group);
            }
            runner.resume(s, store.handles(s.id()), unrecorded);
        }
        return stored.size();
    }

    /**
     * Before anything is re-attached or started: each driver kills what an earlier agent started for a run whose
     * handle it never recorded (killed between a driver's start and the durable record of the handle), so such a
     * run neither leaks nor runs unreported (docs/process-supervision.md, "Runs without a recorded handle").
     *
     * @return the run ids killed
     */
    private Set<String> killUnrecordedRuns(List<AllocationState> stored) {
        Set<String> keep = new HashSet<>();
        for (AllocationState s : stored) {
            store.handles(s.id()).values().forEach(h -> {
                if (!h.isEmpty()) {
                    keep.add(Handles.fromMap(h).taskId());
                }
            });
        }
        Set<String> killed = new HashSet<>();
        java.nio.file.Path allocRoot = config.dataDir().resolve("alloc");
        for (String name : drivers.names()) {
            drivers.driver(name).ifPresent(d -> {
                try {
                    killed.addAll(d.killUnrecordedRuns(allocRoot, keep));
                } catch (RuntimeException | LinkageError e) {
                    LOG.warn("driver {} failed to kill the runs an earlier agent left unrecorded: {}", name,
                            e.toString());
                }
            });
        }
        for (String run : killed) {
            LOG.warn("run {} was started by an earlier agent that died before recording it: its processes were "
                    + "killed", run);
        }
        return killed;
    }

    /**
     * Places {@code count} allocations of every group of a validated job and starts them.
     *
     * @return the new allocations' first snapshots, in group then index order
     */
    public List<AllocationState> submit(Job job) {
        if (closed) {
            throw new IllegalStateException("engine is shut down");
        }
        int incoming = job.groups().stream().mapToInt(TaskGroup::count).sum();
        beforePlacement.accept(incoming);
        List<AllocRunner> created = new ArrayList<>();
        for (TaskGroup group : job.groups()) {
            for (int i = 0; i < group.count(); i++) {
                AllocRunner runner = new AllocRunner(ids.get(), job, group, i, config, drivers, runtime, store,
                        this::publish, -1);
                String id = runner.id();
                runner.network(ports.allocate(id, group.runtime().network()));
                runner.terminal().whenComplete((done, e) -> ports.release(id));
                allocs.put(runner.id(), runner);
                countLive(runner, group);
                created.add(runner);
            }
        }
        created.forEach(AllocRunner::start);
        if (LOG.isInfoEnabled()) {
            LOG.info("job {}: placed {} allocation(s): {}", job.id(), created.size(),
                    created.stream().map(AllocRunner::id).toList());
        }
        return created.stream().map(AllocRunner::snapshot).toList();
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
        if (closed) {
            throw new IllegalStateException("engine is shut down");
        }
        beforePlacement.accept(1);
        TaskGroup group = failed.group();
        AllocRunner runner = new AllocRunner(ids.get(), failed.job(), group, failed.index(), config, drivers,
                runtime, store, this::publish, -1);
        String id = runner.id();
        runner.network(ports.allocate(id, group.runtime().network()));
        runner.terminal().whenComplete((done, e) -> ports.release(id));
        allocs.put(id, runner);
        countLive(runner, group);
        beforeStart.accept(id);
        runner.start();
        LOG.info("job {}: placed allocation {} to replace failed allocation {}", failed.jobId(), id, failed.id());
        return runner.snapshot();
    }

    /** The engine's clock and timers (the agent's rescheduler arms its delays there). */
    public io.drover.driver.api.Timers timers() {
        return runtime.timers();
    }

    /** Counts the allocation's tasks as live until it is terminal. */
    private void countLive(AllocRunner runner, TaskGroup group) {
        int n = group.tasks().size();
        liveTasks.addAndGet(n);
        runner.terminal().whenComplete((s, e) -> liveTasks.addAndGet(-n));
    }

    /**
     * Tasks of the allocations that are not terminal yet (placed, or resumed at start-up): what the client's
     * {@code max_tasks} bounds. Thread-safe, lock-free; a snapshot that may be stale by the time it is read.
     */
    public long liveTasks() {
        return liveTasks.get();
    }

    /**
     * The allocation's latest published state. A new allocation is known by id at once, with its first snapshot
     * (no events), before anything of it is on disk: {@link #recorded} tells when its id survives a kill, and
     * {@link #recordedAllocations} lists only those.
     */
    public Optional<AllocationState> allocation(String id) {
        return Optional.ofNullable(allocs.get(id)).map(AllocRunner::snapshot);
    }

    /**
     * Completes once a state of each of these allocations is on disk (placement is durable), so that an id given
     * to a client survives a {@code kill -9} of the agent. Unknown ids count as recorded.
     */
    public CompletableFuture<Void> recorded(List<String> allocIds) {
        return CompletableFuture.allOf(allocIds.stream().map(allocs::get).filter(java.util.Objects::nonNull)
                .map(AllocRunner::recorded).toArray(CompletableFuture[]::new));
    }

    /**
     * Whether a state of this allocation is on disk, so its id survives a {@code kill -9} of the agent: listings
     * show only these (a new allocation is known by id at once, listed once recorded). False for an unknown id.
     */
    public boolean isRecorded(String allocId) {
        AllocRunner runner = allocs.get(allocId);
        return runner != null && runner.recorded().isDone();
    }

    /** Every allocation whose placement is on disk ({@link #isRecorded}), oldest first. */
    public List<AllocationState> recordedAllocations() {
        return allocs.values().stream().filter(r -> r.recorded().isDone()).map(AllocRunner::snapshot)
                .sorted(Comparator.comparingLong(AllocationState::createTime).thenComparing(AllocationState::id))
                .toList();
    }

    /**
     * Every allocation's latest snapshot, in no particular order, including new ones not yet on disk: for passes
     * over all of them that need no order (the GC's placement pass runs on every submit and sorts what it
     * selects from itself; sorting every record first cost it most of its time, issue 18). Any thread.
     */
    public List<AllocationState> snapshots() {
        List<AllocationState> out = new java.util.ArrayList<>(allocs.size());
        for (AllocRunner r : allocs.values()) {
            out.add(r.snapshot());
        }
        return out;
    }

    /** Every allocation, oldest first, including new ones not yet on disk. */
    public List<AllocationState> allocations() {
        return allocs.values().stream().map(AllocRunner::snapshot)
                .sorted(Comparator.comparingLong(AllocationState::createTime).thenComparing(AllocationState::id))
                .toList();
    }

    /** Completes with the allocation's snapshot once it is terminal (complete or failed). */
    public CompletableFuture<AllocationState> terminal(String allocId) {
        AllocRunner runner = allocs.get(allocId);
        if (runner == null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no allocation " + allocId));
        }
        return runner.terminal();
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
        AllocRunner runner = allocs.get(allocId);
        if (runner != null) {
            runner.stop();
        }
    }

    /**
     * Kills every live task of an allocation at once with SIGKILL of its whole tree, poststop tasks included, and
     * starts no poststop task that has not started; the events (Killing, Terminated, Killed) are recorded as for
     * any kill. For {@code drover run}, which owns its tasks and must leave none running. Idempotent.
     *
     * @param reason shown in each Killing event
     */
    public void killNow(String allocId, String reason) {
        AllocRunner runner = allocs.get(allocId);
        if (runner != null) {
            runner.killNow(reason);
        }
    }

    /**
     * Called by {@link #submit} with the number of allocations about to be placed, on the caller's thread, before
     * they are created (client GC makes room there). The hook must not wait for anything: placement never waits
     * for destroys.
     */
    public void beforePlacement(java.util.function.IntConsumer hook) {
        this.beforePlacement = hook;
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
        AllocRunner runner = allocs.get(allocId);
        if (runner == null) {
            return CompletableFuture.completedFuture(DestroyOutcome.UNKNOWN);
        }
        return runner.destroy(reason);
    }

    /**
     * Forgets a destroyed allocation's record (record_retention expired): gone from {@link #allocations()} at
     * once, and deleted from the store. An allocation GC has not destroyed is not purged.
     *
     * @return whether it was purged
     */
    public boolean purge(String allocId) {
        AllocRunner runner = allocs.get(allocId);
        if (runner == null || runner.snapshot().destroyedAt() < 0) {
            return false;
        }
        allocs.remove(allocId);
        if (store != null) {
            try {
                store.delete(allocId, null);
            } catch (IllegalStateException e) {
                LOG.error("allocation {}: purge not recorded, the state store failed: {}", allocId, e.getMessage());
            }
        }
        return true;
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
        AllocRunner runner = allocs.get(allocId);
        if (runner != null) {
            runner.signal(task, signal);
        }
    }

    private void publish(AllocationState state) {
        if (closed) {
            return;
        }
        for (AllocationListener l : listeners) {
            try {
                l.onUpdate(state);
            } catch (RuntimeException e) {
                LOG.warn("allocation listener failed", e);
            }
        }
    }

    /**
     * Agent shutdown: no new allocations, no more publishing; tasks are left running, as Nomad's client
     * leaves them for the next agent to re-attach. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
    }
}
