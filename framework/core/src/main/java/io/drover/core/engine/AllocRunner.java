package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import io.drover.core.store.StateStore;
import io.drover.core.time.Nanos;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One allocation: its task runners and the lifecycle that gates them (contract §2). All state is owned by
 * the allocation's {@link SerialExecutor}; public entry points post onto it. After every action that changed
 * something, a new immutable {@link AllocationState} is published to the engine.
 *
 * <pre>
 * PRESTART --prestarts done, sidecars running--> MAIN --main done / leader dead / a task failed / stop-->
 * STOPPING (leader, other main, sidecars; stage by stage) --> POSTSTOP (poststop tasks run) --> DONE
 * </pre>
 */
final class AllocRunner implements TaskRunnerHost {
    private static final Logger LOG = LoggerFactory.getLogger(AllocRunner.class);

    enum Phase {
        INIT,
        PRESTART,
        MAIN,
        STOPPING,
        POSTSTOP,
        DONE
    }

    private final String id;
    private final Job job;
    private final TaskGroup group;
    private final int index;
    private PortAllocator.Assignment network = PortAllocator.Assignment.NONE;
    private final EngineConfig config;
    private final DriverCatalog drivers;
    private final Timers timers;
    private final SerialExecutor serialExecutor;
    private final Executor serial;
    private final AllocDirs dirs;
    private final Consumer<AllocationState> publisher;
    private final StateStore store;
    private final List<TaskRunner> runners = new ArrayList<>();
    private final CompletableFuture<AllocationState> terminal = new CompletableFuture<>();
    /** Completes when a state of the allocation is on disk (at once for a resumed one). */
    private final CompletableFuture<Void> recorded = new CompletableFuture<>();
    private final long createTime;

    private Phase phase = Phase.INIT;
    private DesiredStatus desired = DesiredStatus.RUN;
    private List<List<TaskRunner>> stopStages = List.of();
    private int stopStage;
    private boolean poststartLaunched;
    private boolean dirty;
    private boolean reconciling;
    private boolean reconcileAgain;
    private boolean destroyed;
    /** {@link #killNow}: every task is SIGKILLed, poststop tasks that have not started never start. */
    private String forcedReason;
    private io.drover.core.gc.GcReason pendingDestroy;
    private CompletableFuture<DestroyOutcome> pendingDestroyDone;
    private volatile AllocationState snapshot;
    /** Actions waiting for the changes recorded so far to be durable ({@link #afterDurable}). */
    private List<Runnable> afterDurable = new ArrayList<>();

    /**
     * @param createTime unix nanos of a recorded allocation, or -1 for a new one (now)
     * @param store where every change is persisted before it is published; null: publish at once (drover run)
     */
    AllocRunner(String id, Job job, TaskGroup group, int index, EngineConfig config, DriverCatalog drivers,
            EngineRuntime runtime, StateStore store, Consumer<AllocationState> publisher,
            long createTime) {
        this.id = id;
        this.job = job;
        this.group = group;
        this.index = index;
        this.config = config;
        this.drivers = drivers;
        this.timers = runtime.timers();
        this.serialExecutor = new SerialExecutor(runtime.executor(), id);
        // flush in finally: an action that throws (an engine bug) still persists and publishes what it changed, so
        // a placement is never left unrecorded (a PUT waiting for it, a state lost by a kill -9)
        this.serial = action -> serialExecutor.execute(() -> {
            try {
                action.run();
            } finally {
                flush();
            }
        });
        this.dirs = AllocDirs.of(config.dataDir(), id);
        this.publisher = publisher;
        this.store = store;
        this.createTime = createTime >= 0 ? createTime : Nanos.of(timers.now());
        for (Task task : group.tasks()) {
            // Nomad's restart tracker: in a service job main tasks and sidecars restart after a successful exit;
            // prestart and poststart tasks that are not sidecars, and poststop tasks, are done.
            boolean restartOnSuccess = !job.type().runsToCompletion()
                    && (task.kind() == TaskKind.MAIN || task.kind().sidecar());
            runners.add(new TaskRunner(task, this, restartOnSuccess));
        }
        this.snapshot = buildSnapshot();
    }

    String id() {
        return id;
    }

    AllocationState snapshot() {
        return snapshot;
    }

    CompletableFuture<AllocationState> terminal() {
        return terminal;
    }

    /**
     * Completes once a state of this allocation is durable: an agent killed before that forgets the allocation
     * (the API answers a placement only then).
     */
    CompletableFuture<Void> recorded() {
        return recorded;
    }

    /** Starts the allocation. Called once. */
    void start() {
        serial.execute(() -> {
            long now = Nanos.of(timers.now());
            for (TaskRunner r : runners) {
                r.record(TaskEvents.received(now));
            }
            try {
                dirs.createShared();
            } catch (IOException e) {
                for (TaskRunner r : runners) {
                    r.record(TaskEvents.setupFailure(now, "failed to build allocation directory: " + e.getMessage(),
                            true));
                }
                LOG.error("allocation {}: cannot create {}: {}", id, dirs.shared(), e.toString());
            }
            phase = Phase.PRESTART;
            for (TaskRunner r : runners) {
                if (r.kind() == TaskKind.PRESTART || r.kind() == TaskKind.PRESTART_SIDECAR) {
                    r.start();
                }
            }
            reconcile();
        });
    }

    /**
     * Stops the allocation (contract §2.4), then its poststop tasks run. When poststop tasks already run, the
     * ones the kill policy (or their {@code gc_kill}) lets go are killed with escalation; the others run to
     * completion. A stop before poststop tasks started lets them start and run (as Nomad does). Idempotent.
     */
    void stop() {
        serial.execute(() -> {
            desired = DesiredStatus.STOP;
            dirty = true;
            if (phase == Phase.INIT || phase == Phase.PRESTART || phase == Phase.MAIN) {
                beginStop(StopCause.STOP_REQUESTED, null);
                reconcile();
            } else if (phase == Phase.POSTSTOP) {
                for (TaskRunner r : livePoststops()) {
                    if (config.killPolicy().killsPoststop(r.task().lifecycle())) {
                        r.kill(killReason("allocation stopped", r));
                    }
                }
                reconcile();
            }
        });
    }

    /**
     * Kills every live task of the allocation at once (SIGKILL of its whole tree, whatever the kill policy, the
     * tasks' kill_timeout or shutdown_delay), poststop tasks included; poststop tasks that have not started are
     * not started (they end dead with a Killing event that says so). Every task records Killing, then Terminated
     * and Killed when its driver reports the exit, so the allocation ends terminal with nothing blank. For an
     * owner that must leave no process behind ({@code drover run} interrupted). Idempotent.
     */
    void killNow(String reason) {
        serial.execute(() -> {
            if (forcedReason != null || phase == Phase.DONE) {
                return;
            }
            forcedReason = reason;
            desired = DesiredStatus.STOP;
            dirty = true;
            for (TaskRunner r : runners) {
                if (!r.dead() && r.step() != TaskRunner.Step.NOT_STARTED) {
                    r.killNow(reason);
                }
            }
            if (phase == Phase.INIT || phase == Phase.PRESTART || phase == Phase.MAIN) {
                beginStop(StopCause.STOP_REQUESTED, null);
            }
            reconcile();
        });
    }

    /**
     * Destroys the allocation for client GC: a terminal one at once; one whose only live tasks are poststop tasks
     * that the kill policy (or their {@code gc_kill}) lets go, once they are killed (kill_signal, then SIGKILL
     * after kill_timeout); anything else is left alone ({@link DestroyOutcome#SKIPPED_LIVE}). Destroying keeps
     * every task state and event, adds a {@code Garbage Collected} event to each task and removes the
     * allocation directory. Completes on the allocation's executor; the destroyed state is then persisted and
     * published like every change (persist, then publish). Idempotent.
     */
    CompletableFuture<DestroyOutcome> destroy(io.drover.core.gc.GcReason reason) {
        CompletableFuture<DestroyOutcome> done = new CompletableFuture<>();
        serial.execute(() -> {
            if (destroyed) {
                done.complete(DestroyOutcome.ALREADY_DESTROYED);
            } else if (phase == Phase.DONE) {
                finishDestroy(reason);
                done.complete(DestroyOutcome.DESTROYED);
            } else if (pendingDestroy != null) {
                pendingDestroyDone.whenComplete((o, e) -> done.complete(o));
            } else if (phase == Phase.POSTSTOP && !livePoststops().isEmpty() && livePoststops().stream()
                    .allMatch(r -> config.killPolicy().killsPoststop(r.task().lifecycle()))) {
                pendingDestroy = reason;
                pendingDestroyDone = done;
                for (TaskRunner r : livePoststops()) {
                    r.kill(killReason("allocation garbage collected (" + reason.wireName() + ")", r));
                }
                reconcile();
            } else {
                done.complete(DestroyOutcome.SKIPPED_LIVE);
            }
        });
        return done;
    }

    private List<TaskRunner> livePoststops() {
        return of(TaskKind.POSTSTOP).filter(r -> !r.dead()).toList();
    }

    private String killReason(String what, TaskRunner r) {
        Boolean own = r.task().lifecycle() == null ? null : r.task().lifecycle().gcKill();
        return what + ", " + (own != null ? "lifecycle gc_kill = " + own
                : "gc_kill_policy " + config.killPolicy().wireName());
    }

    /** Appends the Garbage Collected event to every task and removes the allocation directory. */
    private void finishDestroy(io.drover.core.gc.GcReason reason) {
        destroyed = true;
        long now = Nanos.of(timers.now());
        for (TaskRunner r : runners) {
            Boolean own = r.task().lifecycle() == null ? null : r.task().lifecycle().gcKill();
            r.record(TaskEvents.garbageCollected(now, reason.wireName(), config.killPolicy().wireName(), own));
        }
        dirty = true;
        try {
            dirs.delete();
        } catch (IOException | RuntimeException e) {
            LOG.warn("allocation {}: garbage collected ({}), record kept, but its directory {} could not be removed: "
                    + "{}", id, reason.wireName(), dirs.root(), e.getMessage());
            return;
        }
        LOG.info("allocation {}: garbage collected ({}), directory removed, record kept", id,
                reason.wireName());
    }

    /** Sends a signal to one task, or to every running task when {@code task} is null. */
    void signal(String task, String signal) {
        serial.execute(() -> {
            for (TaskRunner r : runners) {
                if (task == null || r.name().equals(task)) {
                    r.signal(signal, "");
                }
            }
        });
    }

    // ---- TaskRunnerHost, all on the serial executor ----

    @Override
    public String allocId() {
        return id;
    }

    @Override
    public Executor serial() {
        return serial;
    }

    @Override
    public Executor urgent() {
        return action -> serialExecutor.executeUrgent(() -> {
            try {
                action.run();
            } finally {
                flush();
            }
        });
    }

    @Override
    public Timers timers() {
        return timers;
    }

    @Override
    public AllocDirs dirs() {
        return dirs;
    }

    @Override
    public Duration maxKillTimeout() {
        return config.maxKillTimeout();
    }

    @Override
    public Duration driverStartTimeout() {
        return config.driverStartTimeout();
    }

    @Override
    public Optional<TaskDriver> driver(String name) {
        return drivers.driver(name);
    }

    /**
     * The ports the allocation was given (or why it got none: its tasks then fail at setup). Called once, by the
     * engine, before the allocation starts or resumes.
     */
    void network(PortAllocator.Assignment assignment) {
        this.network = assignment;
        this.snapshot = buildSnapshot();
    }

    @Override
    public String networkProblem() {
        return network.problem();
    }

    @Override
    public Map<String, String> meta(Task task) {
        return RuntimeEnv.meta(job, group, task);
    }

    @Override
    public Map<String, String> runtimeEnv(Task task) throws UnsafePathException {
        Map<String, String> env = RuntimeEnv.of(job, group, task, id, allocName(), index, dirs);
        if (network.resources() != null) {
            env.putAll(RuntimeEnv.ports(network.resources()));
        }
        if (task.kind() == TaskKind.POSTSTOP) {
            env.put("DROVER_ALLOC_RESULT", mainTasksSucceeded() ? "success" : "failed");
            env.put("DROVER_FAILED_TASKS", String.join(",", failedTasks()));
        }
        return env;
    }

    @Override
    public void afterDurable(Runnable action) {
        afterDurable.add(action);
        dirty = true;
    }

    @Override
    public void taskChanged(TaskRunner runner, boolean transition) {
        dirty = true;
        if (transition) {
            reconcile();
        }
    }

    // ---- lifecycle ----

    private void reconcile() {
        if (reconciling) {
            reconcileAgain = true;
            return;
        }
        reconciling = true;
        try {
            do {
                reconcileAgain = false;
                step();
            } while (reconcileAgain);
        } finally {
            reconciling = false;
        }
    }

    private void step() {
        switch (phase) {
            case INIT, DONE -> {
                // nothing to decide
            }
            case PRESTART -> {
                Optional<TaskRunner> failed = firstFailed();
                if (failed.isPresent()) {
                    beginStop(StopCause.SIBLING_FAILED, failed.get());
                    return;
                }
                boolean ready = runners.stream().allMatch(r -> switch (r.kind()) {
                    case PRESTART -> r.dead();
                    case PRESTART_SIDECAR -> r.running() || r.dead();
                    default -> true;
                });
                if (ready) {
                    phase = Phase.MAIN;
                    dirty = true;
                    startAll(TaskKind.MAIN);
                    reconcileAgain = true;
                }
            }
            case MAIN -> {
                Optional<TaskRunner> failed = firstFailed();
                if (failed.isPresent()) {
                    beginStop(StopCause.SIBLING_FAILED, failed.get());
                    return;
                }
                if (runners.stream().anyMatch(r -> r.task().leader() && r.dead())) {
                    beginStop(StopCause.LEADER_DEAD, null);
                    return;
                }
                if (!poststartLaunched && of(TaskKind.MAIN).allMatch(TaskRunner::everStarted)) {
                    poststartLaunched = true;
                    startAll(TaskKind.POSTSTART);
                    startAll(TaskKind.POSTSTART_SIDECAR);
                }
                boolean workDone = runners.stream()
                        .filter(r -> !r.kind().sidecar() && r.kind() != TaskKind.POSTSTOP)
                        .filter(r -> r.kind() != TaskKind.POSTSTART || poststartLaunched)
                        .allMatch(TaskRunner::dead);
                if (workDone) {
                    beginStop(StopCause.MAIN_DEAD, null);
                }
            }
            case STOPPING -> {
                while (stopStage < stopStages.size() && stopStages.get(stopStage).stream().allMatch(TaskRunner::dead)) {
                    stopStage++;
                    if (stopStage < stopStages.size()) {
                        killStage(stopStages.get(stopStage));
                    }
                }
                if (stopStage >= stopStages.size()) {
                    phase = Phase.POSTSTOP;
                    dirty = true;
                    if (forcedReason != null) {
                        skipPoststops();
                    } else {
                        startAll(TaskKind.POSTSTOP);
                    }
                    reconcileAgain = true;
                }
            }
            case POSTSTOP -> {
                if (of(TaskKind.POSTSTOP).allMatch(TaskRunner::dead)) {
                    phase = Phase.DONE;
                    dirty = true;
                    if (pendingDestroy != null) {
                        finishDestroy(pendingDestroy);
                        pendingDestroy = null;
                        pendingDestroyDone.complete(DestroyOutcome.DESTROYED);
                    }
                }
            }
        }
    }

    private void beginStop(StopCause cause, TaskRunner failed) {
        phase = Phase.STOPPING;
        dirty = true;
        long now = Nanos.of(timers.now());
        List<TaskRunner> live = new ArrayList<>();
        List<TaskRunner> neverStarted = new ArrayList<>();
        for (TaskRunner r : runners) {
            if (r.dead() || r.kind() == TaskKind.POSTSTOP || r == failed) {
                continue;
            }
            TaskEvent reason = switch (cause) {
                case SIBLING_FAILED -> TaskEvents.siblingFailed(now, failed.name());
                case LEADER_DEAD -> TaskEvents.leaderDead(now);
                case MAIN_DEAD -> TaskEvents.mainDead(now);
                case STOP_REQUESTED -> null;
            };
            if (reason != null) {
                r.record(reason);
            }
            if (r.step() == TaskRunner.Step.NOT_STARTED) {
                neverStarted.add(r);
            } else {
                live.add(r);
            }
        }
        stopStages = StopPlan.stages(live);
        stopStage = 0;
        // Only now, with the plan set: each death re-evaluates the allocation (re-entrantly when the stop came
        // from outside reconcile), and an empty plan there would start poststop tasks beside live ones.
        for (TaskRunner r : neverStarted) {
            r.kill(""); // never ran: dead at once, nothing to signal
        }
        if (!stopStages.isEmpty()) {
            killStage(stopStages.get(0));
        }
        reconcileAgain = true;
    }

    /** After {@link #killNow}: the poststop tasks that never started end dead without running, saying why. */
    private void skipPoststops() {
        long now = Nanos.of(timers.now());
        for (TaskRunner r : of(TaskKind.POSTSTOP).filter(r -> r.step() == TaskRunner.Step.NOT_STARTED).toList()) {
            r.record(TaskEvents.killing(now, Duration.ZERO, io.drover.driver.api.Signals.SIGKILL,
                    forcedReason + "; not started"));
            r.kill("");
        }
    }

    private void killStage(List<TaskRunner> stage) {
        for (TaskRunner r : stage) {
            r.kill("");
        }
    }

    private void startAll(TaskKind kind) {
        if (kind == TaskKind.POSTSTOP && of(TaskKind.POSTSTOP).findAny().isPresent()) {
            // only for a poststop task to read: file I/O on an engine thread, which other allocations' timers
            // (max_runtime, kill escalation) queue behind
            AllocResults.write(dirs, runners, LOG);
        }
        of(kind).forEach(TaskRunner::start);
    }

    private java.util.stream.Stream<TaskRunner> of(TaskKind kind) {
        return runners.stream().filter(r -> r.kind() == kind);
    }

    private Optional<TaskRunner> firstFailed() {
        return runners.stream().filter(r -> r.failed() && r.kind() != TaskKind.POSTSTOP).findFirst();
    }

    /**
     * product.md's {@code DROVER_ALLOC_RESULT}: every main task succeeded, i.e. it ran, is not failed, and was not
     * cut short because another task failed ({@code Sibling Task Failed}). A main task stopped by the user is not
     * failed, as in Nomad; one that never ran because a prestart task failed did not succeed. A failed hook that
     * left the main tasks alone (a poststart that exits 1) is named in {@code DROVER_FAILED_TASKS} only.
     */
    private boolean mainTasksSucceeded() {
        return of(TaskKind.MAIN).allMatch(r -> r.everStarted() && !r.failed()
                && !r.hasEvent(io.drover.core.event.TaskEventType.SIBLING_FAILED));
    }

    private List<String> failedTasks() {
        return runners.stream().filter(TaskRunner::failed).map(TaskRunner::name).collect(Collectors.toList());
    }

    private String allocName() {
        return job.id() + "." + group.name() + "[" + index + "]";
    }

    // ---- publishing ----

    private void flush() {
        if (!dirty) {
            return;
        }
        dirty = false;
        AllocationState next = buildSnapshot();
        boolean done = phase == Phase.DONE;
        List<Runnable> waiting = afterDurable;
        if (!waiting.isEmpty()) {
            afterDurable = new ArrayList<>();
        }
        if (store == null) {
            publish(next, done);
            waiting.forEach(serial::execute);
            return;
        }
        try {
            store.persist(next, new Publication(next, done, waiting));
        } catch (IllegalStateException e) {
            // The store stopped for good (a change it could not encode) or is closed: nothing more can be
            // recorded, and a state that is not on disk is never shown. (Disk errors do not throw: the store
            // holds the change and publishes it once written.) The agent treats a stopped store as fatal.
            LOG.error("allocation {}: state not recorded, the state store failed: {}", id, e.getMessage());
        }
    }

    /**
     * The durable callback of one persisted version (run on the store's writer thread): publishes the version,
     * then posts the runnables that waited for it to be durable. A version the store reports
     * {@linkplain StateStore.Supersedable#superseded() superseded} (a later one, held with it while the disk
     * refuses writes, becomes durable in the same write) is not published and not kept: the later version,
     * published right after it, carries all its events.
     */
    private final class Publication implements StateStore.Supersedable {
        private AllocationState next; // writer thread only, once queued
        private final boolean done;
        private final List<Runnable> waiting;

        Publication(AllocationState next, boolean done, List<Runnable> waiting) {
            this.next = next;
            this.done = done;
            this.waiting = waiting;
        }

        @Override
        public void superseded() {
            next = null;
        }

        @Override
        public void run() {
            if (next != null) {
                publishLater(next, done);
            }
            if (!waiting.isEmpty()) {
                try {
                    waiting.forEach(serial::execute);
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    LOG.debug("allocation {}: the agent is shut down, a task start is dropped", id);
                }
            }
        }
    }

    /**
     * Posts the publication of a durable state to the allocation's executor (from the store's writer thread).
     * After an agent shutdown the pool refuses it: the state is on disk and the closed engine publishes nothing,
     * so that is not an error.
     */
    private void publishLater(AllocationState next, boolean done) {
        try {
            serialExecutor.execute(() -> publish(next, done));
        } catch (java.util.concurrent.RejectedExecutionException e) {
            LOG.debug("allocation {}: durable state not published, the agent is shut down", id);
        }
    }

    /** Persist, then publish: readers and listeners only ever see durable states. */
    private void publish(AllocationState next, boolean done) {
        snapshot = next;
        recorded.complete(null);
        publisher.accept(next);
        if (done && !terminal.isDone()) {
            terminal.complete(next);
        }
    }

    @Override
    public void taskHandle(TaskRunner runner, io.drover.driver.api.TaskHandle handle) {
        if (store == null) {
            return;
        }
        try {
            store.putHandle(id, runner.name(), handle == null ? Map.of() : Handles.toMap(handle), null);
        } catch (IllegalStateException e) {
            LOG.error("allocation {}: handle of {} not recorded, the state store failed: {}", id, runner.name(),
                    e.getMessage());
        }
    }

    /**
     * Resumes an allocation a previous agent recorded: dead tasks stay as they were; live ones are re-attached
     * from their persisted handles or marked {@code Not Recovered} (failed, exit unknown). Then the lifecycle
     * continues from where the record says it was: a terminal allocation stays as it is, the others go on
     * (a lost task fails the allocation, so the others are stopped and poststop tasks run).
     */
    void resume(AllocationState stored, Map<String, Map<String, String>> handles, java.util.Set<String> unrecorded) {
        snapshot = stored;
        recorded.complete(null);
        serial.execute(() -> {
            for (TaskRunner r : runners) {
                TaskState s = stored.taskStates().get(r.name());
                if (s != null) {
                    r.restore(s);
                }
            }
            desired = stored.desiredStatus();
            destroyed = stored.destroyedAt() >= 0;
            if (stored.clientStatus().terminal()) {
                phase = Phase.DONE;
                publish(stored, true);
                return;
            }
            for (TaskRunner r : runners) {
                if (r.dead()) {
                    continue;
                }
                Map<String, String> handle = handles.get(r.name());
                if (handle != null && !handle.isEmpty()) {
                    r.recover(Handles.fromMap(handle));
                } else if (r.everStarted() || r.state().events().stream()
                        .anyMatch(e -> e.type() == io.drover.core.event.TaskEventType.TASK_SETUP)) {
                    String runs = id + "/" + r.name() + "/";
                    r.lost(unrecorded.stream().anyMatch(run -> run.startsWith(runs))
                            ? "no handle was recorded for its run, whose processes were found and killed"
                            : "no handle was recorded for its run");
                }
            }
            phase = resumePhase();
            if (phase == Phase.STOPPING) {
                stopStages = List.of();
                stopStage = 0;
            }
            dirty = true;
            reconcile();
        });
    }

    private Phase resumePhase() {
        boolean poststopStarted = of(TaskKind.POSTSTOP).anyMatch(r -> r.everStarted() || r.dead());
        boolean mainStarted = of(TaskKind.MAIN).anyMatch(r -> r.everStarted() || r.dead());
        poststartLaunched = of(TaskKind.POSTSTART).anyMatch(TaskRunner::everStarted)
                || of(TaskKind.POSTSTART_SIDECAR).anyMatch(TaskRunner::everStarted);
        if (poststopStarted || desired == DesiredStatus.STOP) {
            return Phase.STOPPING;
        }
        if (mainStarted) {
            return Phase.MAIN;
        }
        for (TaskRunner r : runners) {
            if ((r.kind() == TaskKind.PRESTART || r.kind() == TaskKind.PRESTART_SIDECAR)
                    && r.step() == TaskRunner.Step.NOT_STARTED) {
                r.start();
            }
        }
        return Phase.PRESTART;
    }

    private AllocationState buildSnapshot() {
        Map<String, TaskState> states = new LinkedHashMap<>();
        boolean allDead = true;
        boolean anyFailed = false;
        boolean anyStarted = false;
        for (TaskRunner r : runners) {
            states.put(r.name(), r.state());
            allDead &= r.dead();
            anyFailed |= r.failed();
            anyStarted |= r.everStarted();
        }
        ClientStatus status;
        if (phase == Phase.DONE && allDead) {
            status = anyFailed ? ClientStatus.FAILED : ClientStatus.COMPLETE;
        } else if (anyStarted) {
            status = ClientStatus.RUNNING;
        } else {
            status = ClientStatus.PENDING;
        }
        String desiredDescription = desired == DesiredStatus.STOP ? "alloc was stopped" : "";
        return new AllocationState(id, allocName(), job.id(), group.name(), index, status, status.description(),
                desired, desiredDescription, createTime, Nanos.of(timers.now()), states, job, network.resources());
    }
}
