package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.TaskKind;
import io.drover.core.state.AllocationState;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import io.drover.core.store.StateStore;
import io.drover.core.time.Nanos;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One allocation: its task runners and the lifecycle that gates them (contract §2). All state is owned by
 * the allocation's {@link SerialExecutor}; public entry points post onto it and return at once. After every action
 * that changed something, a new immutable {@link AllocationState} is persisted, then published to the engine.
 *
 * <p>The runner is the allocation's entry points and its tasks' host; the parts are in their own files: the
 * lifecycle ordering ({@link AllocLifecycle}), the GC and kill policies ({@link AllocGc}), the state persistence
 * ({@link AllocPublisher}), the snapshot, name and runtime environment it shows ({@link AllocView}).
 */
final class AllocRunner implements TaskRunnerHost {
    private static final Logger LOG = LoggerFactory.getLogger(AllocRunner.class);

    private final String id;
    private final TaskGroup group;
    private PortAllocator.Assignment network = PortAllocator.Assignment.NONE;
    private final EngineConfig config;
    private final DriverCatalog drivers;
    private final Timers timers;
    private final SerialExecutor serialExecutor;
    private final Executor serial;
    private final AllocDirs dirs;
    private final AllocPublisher publisher;
    private final AllocGc gc;
    private final AllocLifecycle lifecycle;
    private final AllocView view;
    private final List<TaskRunner> runners = new ArrayList<>();
    private final long createTime;

    private DesiredStatus desired = DesiredStatus.RUN;
    private final AllocDeadline deadline = new AllocDeadline();

    /**
     * @param createTime unix nanos of a recorded allocation, or -1 for a new one (now)
     * @param store where every change is persisted before it is published; null: publish at once (drover run)
     */
    AllocRunner(String id, Job job, TaskGroup group, int index, EngineConfig config, DriverCatalog drivers,
            EngineRuntime runtime, StateStore store, Consumer<AllocationState> publisher,
            long createTime) {
        this.id = id;
        this.group = group;
        this.config = config;
        this.drivers = drivers;
        this.timers = runtime.timers();
        // The state is persisted (then published) once it is settled: when the allocation's queue runs dry (or a
        // batch of its actions ends), one version for every action that ran since, not one per action. It runs
        // after an action that threw (an engine bug) too, so a placement is never left unrecorded (a PUT waiting
        // for it, a state lost by a kill -9).
        this.serialExecutor = new SerialExecutor(runtime.executor(), id, this::flush);
        this.serial = serialExecutor;
        this.dirs = AllocDirs.of(config.dataDir(), id);
        this.publisher = new AllocPublisher(id, store, publisher, serial);
        this.gc = new AllocGc(id, runners, config, dirs, timers, this.publisher);
        this.lifecycle = new AllocLifecycle(runners, dirs, timers, this.publisher, gc);
        this.createTime = createTime >= 0 ? createTime : Nanos.of(timers.now());
        this.view = new AllocView(id, job, group, index, this.createTime, timers, dirs, runners, lifecycle);
        for (Task task : group.tasks()) {
            // Nomad's restart tracker: in a service job main tasks and sidecars restart after a successful exit;
            // prestart and poststart tasks that are not sidecars, and poststop tasks, are done.
            boolean restartOnSuccess = !job.type().runsToCompletion()
                    && (task.kind() == TaskKind.MAIN || task.kind().sidecar());
            runners.add(new TaskRunner(task, this, restartOnSuccess));
        }
        this.publisher.show(buildSnapshot());
    }

    String id() {
        return id;
    }

    AllocationState snapshot() {
        return publisher.snapshot();
    }

    CompletableFuture<AllocationState> terminal() {
        return publisher.terminal();
    }

    /**
     * Completes once a state of this allocation is durable: an agent killed before that forgets the allocation
     * (the API answers a placement only then).
     */
    CompletableFuture<Void> recorded() {
        return publisher.recorded();
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
            deadline.arm(group, createTime, timers, this::exceedMaxRunDuration);
            lifecycle.enter(AllocLifecycle.Phase.PRESTART);
            for (TaskRunner r : runners) {
                if (r.kind() == TaskKind.PRESTART || r.kind() == TaskKind.PRESTART_SIDECAR) {
                    r.start();
                }
            }
            lifecycle.reconcile();
        });
    }

    /** The group's max_run_duration passed ({@link AllocDeadline}, timer thread): the allocation is stopped. */
    private void exceedMaxRunDuration(Duration limit, Duration ranFor) {
        serial.execute(() -> {
            if (desired == DesiredStatus.STOP || lifecycle.phase() == AllocLifecycle.Phase.DONE) {
                return; // stopped already: the stop has its own course
            }
            desired = DesiredStatus.STOP;
            publisher.changed();
            LOG.info("allocation {}: exceeded max_run_duration of {}, stopping it", id, limit);
            lifecycle.exceedMaxRunDuration(limit, ranFor);
            lifecycle.reconcile();
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
            publisher.changed();
            if (lifecycle.beforeStop()) {
                lifecycle.beginStop(StopCause.STOP_REQUESTED, null);
                lifecycle.reconcile();
            } else if (lifecycle.phase() == AllocLifecycle.Phase.POSTSTOP) {
                gc.stopPoststops();
                lifecycle.reconcile();
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
            if (lifecycle.forcedReason() != null || lifecycle.phase() == AllocLifecycle.Phase.DONE) {
                return;
            }
            lifecycle.force(reason);
            desired = DesiredStatus.STOP;
            publisher.changed();
            for (TaskRunner r : runners) {
                if (!r.dead() && r.step() != TaskRunner.Step.NOT_STARTED) {
                    r.killNow(reason);
                }
            }
            if (lifecycle.beforeStop()) {
                lifecycle.beginStop(StopCause.STOP_REQUESTED, null);
            }
            lifecycle.reconcile();
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
            if (gc.destroy(reason, lifecycle.phase() == AllocLifecycle.Phase.DONE,
                    lifecycle.phase() == AllocLifecycle.Phase.POSTSTOP, done)) {
                lifecycle.reconcile();
            }
        });
        return done;
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
        return serialExecutor::executeUrgent;
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
    public io.drover.core.service.ServiceCatalog services() {
        return config.services() != null ? config.services() : io.drover.core.service.ServiceCatalog.NONE;
    }

    @Override
    public io.drover.core.vars.VariableStore variables() {
        return config.variables();
    }

    @Override
    public Map<String, String> nodeVars() {
        return config.nodeVars();
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
        publisher.show(buildSnapshot());
    }

    @Override
    public String networkProblem() {
        return network.problem();
    }

    @Override
    public HostVolumeMounts.Result volumeMounts(Task task, java.util.function.UnaryOperator<String> interpolate) {
        return HostVolumeMounts.resolve(group, view.index(), config.hostVolumes(), task, interpolate);
    }

    @Override
    public Map<String, String> meta(Task task) {
        return view.meta(task);
    }

    @Override
    public TaskPaths paths(String task) throws UnsafePathException {
        return view.paths(task);
    }

    @Override
    public Map<String, String> runtimeEnv(Task task) throws UnsafePathException {
        return view.runtimeEnv(task, network);
    }

    @Override
    public void afterDurable(Runnable action) {
        publisher.afterDurable(action);
    }

    @Override
    public void taskChanged(TaskRunner runner, boolean transition) {
        publisher.changed();
        if (transition) {
            lifecycle.reconcile();
        }
    }

    @Override
    public void taskHandle(TaskRunner runner, io.drover.driver.api.TaskHandle handle) {
        publisher.handle(runner.name(), handle);
    }

    /** Once the allocation's actions settled: persists and publishes what they changed ({@link AllocPublisher#flush}). */
    private void flush() {
        publisher.flush(this::buildSnapshot, lifecycle.phase() == AllocLifecycle.Phase.DONE);
    }

    /**
     * Resumes an allocation a previous agent recorded: dead tasks stay as they were; live ones are re-attached
     * from their persisted handles or marked {@code Not Recovered} (failed, exit unknown). Then the lifecycle
     * continues from where the record says it was: a terminal allocation stays as it is, the others go on
     * (a lost task fails the allocation, so the others are stopped and poststop tasks run).
     */
    void resume(AllocationState stored, Map<String, Map<String, String>> handles, java.util.Set<String> unrecorded) {
        publisher.resumed(stored);
        serial.execute(() -> {
            for (TaskRunner r : runners) {
                TaskState s = stored.taskStates().get(r.name());
                if (s != null) {
                    r.restore(s);
                }
            }
            desired = stored.desiredStatus();
            gc.restore(stored.destroyedAt() >= 0);
            if (stored.clientStatus().terminal()) {
                lifecycle.enter(AllocLifecycle.Phase.DONE);
                publisher.publish(stored, true);
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
            lifecycle.resume(desired == DesiredStatus.STOP);
            if (desired != DesiredStatus.STOP) {
                deadline.arm(group, createTime, timers, this::exceedMaxRunDuration);
            }
            publisher.changed();
            lifecycle.reconcile();
        });
    }

    private AllocationState buildSnapshot() {
        return view.snapshot(desired, network);
    }
}
