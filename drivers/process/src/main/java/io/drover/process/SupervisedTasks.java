package io.drover.process;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.driver.api.Timers;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task table of a driver whose tasks are supervised processes (raw_exec, java, exec): everything of the
 * {@code TaskDriver} contract after the driver has turned a task's config into a {@link SpawnSpec} — start
 * bookkeeping, awaitExit, signal by name to the whole group, inspect, tree kill on destroy. Shared so that the
 * drivers differ only in how they build the command. Thread-safe; no method blocks on a task.
 */
public final class SupervisedTasks {
    private static final Logger LOG = LoggerFactory.getLogger(SupervisedTasks.class);

    /**
     * A run: its process, when it started, how this agent started it (null when re-attached) and the execs
     * running in it ({@link RunExec}), killed when the run is destroyed.
     */
    private record Entry(SupervisedProcess process, long startedAtNanos, SpawnSpec spec,
            java.util.Set<SupervisedProcess> execs, java.util.concurrent.atomic.AtomicInteger execCount,
            CompletableFuture<ExitResult> exit, TaskCgroup cgroup) {
        /** {@code exit}: the process's, through its cgroup's {@link TaskCgroup#finish} when it has one. */
        Entry(SupervisedProcess process, long startedAtNanos, SpawnSpec spec, TaskCgroup cgroup) {
            this(process, startedAtNanos, spec, ConcurrentHashMap.newKeySet(),
                    new java.util.concurrent.atomic.AtomicInteger(), exitThrough(process, cgroup), cgroup);
        }
    }

    /**
     * The run's exit once its cgroup (if any) has been read for an OOM kill (its removal handed to the
     * {@link CgroupWorker}): on the thread that completes the process's exit (the supervisor's reaper), never an
     * engine thread.
     */
    private static CompletableFuture<ExitResult> exitThrough(SupervisedProcess process, TaskCgroup cgroup) {
        CompletableFuture<ExitResult> exit = process.onExit().toCompletableFuture();
        if (cgroup == null) {
            return exit;
        }
        return exit.handle((r, e) -> {
            ExitResult mapped = cgroup.finish(r);
            if (e != null) {
                throw e instanceof java.util.concurrent.CompletionException ce ? ce
                        : new java.util.concurrent.CompletionException(e);
            }
            return mapped;
        });
    }

    private final String driverName;
    private final Timers timers;
    private final Map<String, Entry> tasks = new ConcurrentHashMap<>();
    private final TaskCgroups cgroups;

    /** @param driverName the name put in every {@link TaskHandle}; runs get this node's {@link TaskCgroups#node()} */
    public SupervisedTasks(String driverName, Timers timers) {
        this(driverName, timers, TaskCgroups.node());
    }

    /** @param cgroups where runs that ask for resources get their cgroups (see {@link #start(TaskConfig, ProcessSupervisor, SpawnSpec)}) */
    public SupervisedTasks(String driverName, Timers timers, TaskCgroups cgroups) {
        this.driverName = driverName;
        this.timers = timers;
        this.cgroups = cgroups;
    }

    /**
     * As {@link #start(String, ProcessSupervisor, SpawnSpec)}, the run limited by the task's {@code resources}:
     * when task cgroups are on and {@code spec} runs under the shim, the run's memory and cpu cgroups are made
     * first (see {@link TaskCgroups}) and the shim's child joins them before its exec; they are removed when the
     * run has ended, and an OOM kill in them makes its exit {@code oomKilled} ("OOM Killed"). A cgroup that
     * cannot be made fails the start with the reason.
     */
    public CompletionStage<TaskHandle> start(TaskConfig task, ProcessSupervisor supervisor, SpawnSpec spec) {
        if (spec.statusFile() == null || tasks.containsKey(task.taskId())) {
            return start(task.taskId(), supervisor, spec);
        }
        TaskCgroup cgroup;
        try {
            cgroup = cgroups.create(task.allocId(), task.taskName(), task.resources()).orElse(null);
        } catch (SpawnException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false, e));
        }
        if (cgroup == null) {
            return start(task.taskId(), supervisor, spec);
        }
        CompletionStage<TaskHandle> started = start(task.taskId(), supervisor, spec.withCgroups(cgroup.dirs()), cgroup);
        return started.whenComplete((h, e) -> {
            if (e != null) {
                cgroup.remove();
            }
        });
    }

    /**
     * Spawns {@code spec} as the run {@code taskId} (synchronously, about a millisecond) and returns a completed
     * stage with its handle (its pid in the driver state); a failed stage with an unrecoverable
     * {@link DriverException} carrying the OS reason when it cannot start, or when the id is already started.
     */
    public CompletionStage<TaskHandle> start(String taskId, ProcessSupervisor supervisor, SpawnSpec spec) {
        return start(taskId, supervisor, spec, null);
    }

    private CompletionStage<TaskHandle> start(String taskId, ProcessSupervisor supervisor, SpawnSpec spec,
            TaskCgroup cgroup) {
        if (tasks.containsKey(taskId)) {
            return alreadyStarted(taskId);
        }
        SupervisedProcess process;
        try {
            process = supervisor.spawn(spec);
        } catch (SpawnException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false, e));
        }
        long startedAt = nanos(timers.now());
        if (tasks.putIfAbsent(taskId, new Entry(process, startedAt, spec, cgroup)) != null) {
            process.killTree(); // lost a race with a concurrent start of the same id
            return alreadyStarted(taskId);
        }
        Map<String, String> state = spec.statusFile() == null ? Map.of("pid", Integer.toString(process.pid()))
                : ShimHandle.of(process, spec);
        return CompletableFuture.completedFuture(new TaskHandle(taskId, driverName, startedAt, state));
    }

    /**
     * Re-attaches to a run an earlier agent started under the shim (see docs/process-supervision.md,
     * "Re-attach"): if its shim still runs (same pid and start time) it is watched, signalled and killed as if
     * started here, and its output pipes are read again; if it has ended, the run has already exited with the code
     * its shim recorded. Never invents an exit. Blocks only for a few /proc reads.
     *
     * @throws TaskNotFoundException when the shim is gone and recorded no exit, or the handle lacks what is needed:
     *     the run's end cannot be known
     * @throws DriverException when the run id is already in the table
     */
    public TaskHandle recover(TaskHandle handle, ProcessSupervisor supervisor) throws DriverException {
        ShimHandle h = ShimHandle.parse(handle);
        SupervisedProcess process;
        try {
            process = supervisor.attach(h.pid(), h.startTime(), h.statusFile(), h.stdout(), h.stderr(), h.rotation());
        } catch (ProcessGoneException e) {
            throw new TaskNotFoundException(handle.taskId(), e.getMessage());
        }
        TaskCgroup cgroup = cgroups.adopt(TaskCgroups.parseDirs(handle.state().get(ShimHandle.CGROUPS))).orElse(null);
        if (tasks.putIfAbsent(handle.taskId(), new Entry(process, handle.startedAtNanos(), null, cgroup)) != null) {
            throw new DriverException("task " + handle.taskId() + " is already known to this agent", false);
        }
        LOG.info("{} task {}: re-attached to process {} ({})", driverName, handle.taskId(), h.pid(),
                process.exitNow().map(e -> "it had ended: " + e).orElse("running"));
        return handle;
    }

    /**
     * Where the shim of run {@code task} records its exit: one file per run in the task directory (removed with
     * the allocation's directory).
     */
    public static java.nio.file.Path statusFile(TaskConfig task) {
        return task.taskDir().resolve(".drover-exit." + task.taskId().replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    private static CompletionStage<TaskHandle> alreadyStarted(String taskId) {
        return CompletableFuture.failedFuture(new DriverException("task " + taskId + " already started", false));
    }

    /** Whether a run with this id is in the table (started and not destroyed). */
    public boolean contains(String taskId) {
        return tasks.containsKey(taskId);
    }

    public CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        // a copy: a caller that completes its stage (completeOnTimeout) must not end the run for the others
        return entry(taskId).exit.copy();
    }

    /** How an exec in a run is built from the run ({@link RunExec#like}, or an isolating driver's wrapping). */
    @FunctionalInterface
    public interface ExecBuilder {
        SpawnSpec build(RunExec.Run run, java.util.List<String> command) throws DriverException;
    }

    /**
     * {@code TaskDriver.exec} in the run {@code taskId} (see {@link RunExec}): refused when the run has ended.
     * Non-blocking.
     */
    public CompletionStage<ExitResult> exec(String taskId, ProcessSupervisor supervisor, ExecBuilder builder,
            java.util.List<String> command, java.time.Duration timeout) {
        Entry task;
        SpawnSpec spec;
        try {
            task = entry(taskId);
            if (task.process.exitNow().isPresent()) {
                throw new DriverException("task is not running", false);
            }
            spec = builder.build(new RunExec.Run(taskId, task.spec, task.process,
                    task.execCount.incrementAndGet()), command);
        } catch (DriverException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletionStage<ExitResult> done = RunExec.start(supervisor, timers, spec, timeout, task.execs::add);
        return done.whenComplete((r, e) -> task.execs.removeIf(p -> p.exitNow().isPresent()));
    }

    /**
     * Sends a signal by name (any spelling {@link Signals} knows) to the task's whole process group. After a
     * SIGKILL, the run's cpu cgroup (if any) gets {@link TaskCgroup#KILLED_CPU_SHARES} on the {@link CgroupWorker}'s
     * thread, so that its dying processes are not starved by the task's own cpu weight.
     */
    public void signal(String taskId, String signal) throws DriverException {
        Entry task = entry(taskId);
        String canonical = Signals.canonical(signal)
                .orElseThrow(() -> new DriverException("unknown signal \"" + signal + "\"", false));
        int number = Signals.number(canonical);
        try {
            task.process.signal(number);
        } catch (IllegalStateException e) {
            throw new DriverException("cannot send " + canonical + ": " + e.getMessage(), false, e);
        }
        if (number == Signals.number("SIGKILL") && task.cgroup != null) {
            CgroupWorker.instance().raiseForKill(task.cgroup); // the dying tasks get a core (CgroupWorker)
        }
    }

    public TaskStatus inspect(String taskId) throws TaskNotFoundException {
        Entry task = entry(taskId);
        Optional<ExitResult> exit = Optional.ofNullable(task.exit.getNow(null));
        return new TaskStatus(taskId, exit.isPresent() ? TaskStatus.State.EXITED : TaskStatus.State.RUNNING,
                task.startedAtNanos, exit.orElse(null), exit.isPresent() ? task.process.endedAtNanos() : -1);
    }

    /**
     * The latest tree kill of a task (its SIGKILL, or the sweep of {@link #destroy}), with the processes that
     * survived it; empty when none was started.
     */
    public Optional<CompletionStage<KillReport>> lastKill(String taskId) throws TaskNotFoundException {
        return entry(taskId).process.lastKill();
    }

    /**
     * Forgets the task after killing its tree: the task itself if it still runs, and whatever it left in its
     * session or group if it exited. Survivors are logged. Idempotent; returns without waiting.
     */
    public void destroy(String taskId) {
        Entry task = tasks.remove(taskId);
        if (task == null) {
            return;
        }
        for (SupervisedProcess exec : task.execs) {
            exec.killTree();
        }
        task.process.killTree().thenAccept(report -> {
            if (!report.clean()) {
                LOG.warn("{} task {}: processes survived SIGKILL: {}", driverName, taskId, report.survivors());
            }
        });
    }

    /**
     * The task's environment, plus the agent's PATH when the task sets none (as raw_exec and java do), plus the
     * run's id and task directory ({@link UnrecordedRuns#RUN_ID_VAR}, {@link UnrecordedRuns#RUN_DIR_VAR}) by which
     * a later agent finds the run if its handle was never recorded ({@link #killUnrecordedRuns}).
     */
    public static Map<String, String> envWithAgentPath(TaskConfig task) {
        Map<String, String> env = new HashMap<>(task.env());
        String agentPath = System.getenv("PATH");
        if (!env.containsKey("PATH") && agentPath != null) {
            env.put("PATH", agentPath);
        }
        env.put(UnrecordedRuns.RUN_ID_VAR, task.taskId());
        env.put(UnrecordedRuns.RUN_DIR_VAR, task.taskDir().toString());
        return env;
    }

    /**
     * The drivers' {@code TaskDriver.killUnrecordedRuns}: kills the processes of runs under {@code allocRoot}
     * not in {@code keep} (an earlier agent died before recording their handles), found by their environment
     * ({@link UnrecordedRuns}); logs each at WARN. Blocks for a /proc scan; called once at agent start.
     *
     * @return the run ids killed
     */
    public java.util.Set<String> killUnrecordedRuns(java.nio.file.Path allocRoot, java.util.Set<String> keep) {
        Map<String, java.util.List<Long>> killed = UnrecordedRuns.kill(allocRoot, keep);
        killed.forEach((run, pids) -> LOG.warn("{}: killed unrecorded run {}: processes {} (an earlier agent started "
                + "it and died before recording its handle)", driverName, run, pids));
        return killed.keySet();
    }

    /**
     * Output through pipes to files rotated per the task's {@code logs} block; or null (the task writes straight to
     * its {@code stdoutPath} and {@code stderrPath}) when both are FIFOs named {@code *.fifo}: the ones a Nomad
     * client's log collector creates and reads ({@code alloc/logs/.<task>.stdout.fifo}, Drover's plugin for Nomad,
     * docs/nomad.md), which rotates the output itself. Drover's agent never names a log path so, and a FIFO a task
     * plants at its own log path is not one: that output is still rotated into {@code <path>.N} files.
     */
    public static LogRotation rotation(TaskConfig task) {
        if (nomadFifo(task.stdoutPath()) && nomadFifo(task.stderrPath())) {
            return null;
        }
        return new LogRotation(task.logMaxFiles(), task.logMaxFileSize(), LogRotation.DEFAULT_BUFFER);
    }

    private static boolean nomadFifo(java.nio.file.Path p) {
        if (p.getFileName() == null || !p.getFileName().toString().endsWith(".fifo")) {
            return false;
        }
        try {
            int mode = (Integer) java.nio.file.Files.getAttribute(p, "unix:mode",
                    java.nio.file.LinkOption.NOFOLLOW_LINKS);
            return (mode & 0170000) == 0010000; // S_IFIFO
        } catch (java.io.IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
    }

    private Entry entry(String taskId) throws TaskNotFoundException {
        Entry task = tasks.get(taskId);
        if (task == null) {
            throw new TaskNotFoundException(taskId);
        }
        return task;
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
