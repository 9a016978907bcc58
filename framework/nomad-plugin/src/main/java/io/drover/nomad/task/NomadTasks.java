package io.drover.nomad.task;

import io.drover.core.spec.SafeName;
import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Signals;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskResources;
import io.drover.driver.api.Timers;
import io.drover.nomad.wire.ConfigProblems;
import io.drover.nomad.wire.BlockSchema;
import io.drover.nomad.wire.MaxRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runs Nomad's client started through this plugin, by Nomad task id, on one Drover driver: Nomad's task
 * lifecycle (start, wait, stop with escalation, destroy, signal, recover) in Drover's driver SPI, plus
 * max_runtime. Thread-safe; no method blocks on a task: waits are stages completed by the driver or by timers
 * ({@code drover-timer}). The kill escalation is Drover's: the stop signal, then SIGKILL through
 * {@link TaskDriver#signal} at the deadline (a tree kill in raw_exec, exec and java).
 */
public final class NomadTasks {
    private static final Logger LOG = LoggerFactory.getLogger(NomadTasks.class);

    private final TaskDriver driver;
    private final BlockSchema schema;
    private final Timers timers;
    private final TaskEventHub events;
    private final ExceededMarks marks = new ExceededMarks();
    private final ConcurrentHashMap<String, NomadRun> runs = new ConcurrentHashMap<>();

    public NomadTasks(TaskDriver driver, BlockSchema schema, Timers timers, TaskEventHub events) {
        this.driver = driver;
        this.schema = schema;
        this.timers = timers;
        this.events = events;
    }

    /** A refused start: {@code retry} false is Nomad's FATAL (no restart), true its RETRY. */
    public static final class StartRefused extends Exception {
        public final boolean retry;

        StartRefused(String message, boolean retry) {
            super(message);
            this.retry = retry;
        }
    }

    /** The outcome of a start: the handle Nomad stores, as driver_state bytes. */
    public record Started(TaskHandle handle, byte[] driverState) {}

    /**
     * Starts a run. Completes exceptionally with {@link StartRefused} for a bad config (naming every bad key), a
     * task that already exceeded its max_runtime, or a driver error.
     */
    public CompletionStage<Started> start(io.drover.nomad.proto.driver.TaskConfig nomad) {
        TaskConfig config;
        MaxRuntime maxRuntime;
        try {
            if (runs.containsKey(nomad.getId())) {
                throw new StartRefused("task " + nomad.getId() + " is already started", false);
            }
            Path taskDir = taskDir(nomad);
            Optional<String> exceeded = marks.find(nomad.getAllocId(), nomad.getName(), taskDir);
            if (exceeded.isPresent()) {
                throw new StartRefused("task \"" + nomad.getName() + "\" is not restarted: its last run hit "
                        + exceeded.get(), false);
            }
            Map<String, Object> decoded = new LinkedHashMap<>(schema.decode(nomad.getMsgpackDriverConfig()
                    .toByteArray()));
            List<String> problems = new ArrayList<>();
            maxRuntime = MaxRuntime.take(decoded, problems);
            for (ConfigProblem p : driver.validateConfig(decoded)) {
                problems.add(p.key() + ": " + p.message());
            }
            if (!problems.isEmpty()) {
                throw new ConfigProblems(schema.block(), problems);
            }
            config = droverConfig(nomad, decoded, taskDir);
        } catch (StartRefused e) {
            return CompletableFuture.failedFuture(e);
        } catch (ConfigProblems e) {
            return CompletableFuture.failedFuture(new StartRefused(e.getMessage(), false));
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(new StartRefused(e.getMessage(), false));
        }
        MaxRuntime limits = maxRuntime;
        CompletionStage<TaskHandle> started;
        try {
            started = driver.start(config);
        } catch (RuntimeException e) {
            started = CompletableFuture.failedFuture(e);
        }
        return started.handle((handle, error) -> {
            if (error != null) {
                Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                boolean retry = cause instanceof DriverException d && d.recoverable();
                throw new java.util.concurrent.CompletionException(new StartRefused(
                        cause.getMessage() == null ? cause.toString() : cause.getMessage(), retry));
            }
            NomadRun run = new NomadRun(nomad, handle, limits);
            track(run);
            return new Started(handle, new DriverState(handle, limits).encode());
        });
    }

    /**
     * Re-attaches to a run from the handle Nomad kept (after a restart of this plugin or of the Nomad client). A run
     * already tracked is left as it is (idempotent). Its max_runtime deadline counts from its original start.
     *
     * @throws TaskNotFoundException when the run is gone and its end cannot be known
     * @throws DriverException when the driver cannot re-attach, or the state is not Drover's
     */
    public void recover(String taskId, io.drover.nomad.proto.driver.TaskHandle nomad) throws DriverException {
        if (runs.containsKey(taskId)) {
            return;
        }
        DriverState state;
        try {
            state = DriverState.decode(nomad.getDriverState().toByteArray());
        } catch (IllegalArgumentException e) {
            throw new DriverException("cannot recover task " + taskId + ": " + e.getMessage(), false);
        }
        TaskHandle handle = driver.recover(state.handle());
        NomadRun run = new NomadRun(nomad.getConfig().toBuilder().setId(taskId).build(), handle, state.maxRuntime());
        track(run);
    }

    private void track(NomadRun run) {
        runs.put(run.id, run);
        CompletionStage<ExitResult> exit;
        try {
            exit = driver.awaitExit(run.id);
        } catch (TaskNotFoundException e) {
            run.exited(new ExitResult(-1, 0, false, "lost"), timers.now());
            return;
        }
        exit.whenComplete((r, e) -> run.exited(e == null ? r : new ExitResult(-1, 0, false, String.valueOf(e)),
                timers.now()));
        if (run.maxRuntime.limited()) {
            Duration left = run.maxRuntime.limit().minus(Duration.between(run.startedAt, timers.now()));
            run.deadline(timers.schedule(left, () -> exceed(run)));
        }
    }

    /** max_runtime reached: the event, the signal, SIGKILL after the grace; the run ends failed, not restarted. */
    private void exceed(NomadRun run) {
        if (!run.markExceeded()) {
            return;
        }
        String message = run.maxRuntime.exceededMessage();
        marks.mark(run.allocId, run.taskName, taskDir(run.nomadConfig), message);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("limit", io.drover.core.event.GoDuration.format(run.maxRuntime.limit()));
        annotations.put("signal", run.maxRuntime.signal());
        annotations.put("grace", io.drover.core.event.GoDuration.format(run.maxRuntime.grace()));
        events.publish(run.id, run.allocId, run.taskName, timers.now(), message, annotations);
        LOG.info("task {} of allocation {}: {}", run.taskName, run.allocId, message);
        signalQuietly(run, run.maxRuntime.signal());
        run.kill(timers.schedule(run.maxRuntime.grace(), () -> signalQuietly(run, Signals.SIGKILL)));
    }

    /** Completes with the run's end: the exit, and an error text when max_runtime ended it. */
    public CompletionStage<NomadRunOutcome> await(String taskId) throws TaskNotFoundException {
        NomadRun run = run(taskId);
        return run.outcome.thenApply(o -> new NomadRunOutcome(o.exit(), o.err()));
    }

    /** How a run ended, as WaitTask reports it. */
    public record NomadRunOutcome(ExitResult exit, String err) {}

    /**
     * Stops a run: {@code signal} (default SIGTERM) now, SIGKILL after {@code timeout} if it still runs. Completes
     * once the run has exited.
     */
    public CompletionStage<Void> stop(String taskId, Duration timeout, String signal) throws TaskNotFoundException {
        NomadRun run = run(taskId);
        if (!run.outcome.isDone()) {
            String sig = signal == null || signal.isBlank() ? "SIGTERM" : signal;
            signalQuietly(run, Signals.canonical(sig).orElse("SIGTERM"));
            run.kill(timers.schedule(timeout, () -> signalQuietly(run, Signals.SIGKILL)));
        }
        return run.outcome.thenApply(o -> null);
    }

    public void signal(String taskId, String signal) throws DriverException {
        NomadRun run = run(taskId);
        String sig = Signals.canonical(signal).orElseThrow(
                () -> new DriverException("unknown signal \"" + signal + "\"", false));
        driver.signal(run.id, sig);
    }

    /**
     * Forgets a run and has the driver release it. A running one is refused unless {@code force}, which kills it
     * (SIGKILL, the whole tree).
     *
     * @throws IllegalStateException for a running run without force
     */
    public void destroy(String taskId, boolean force) throws TaskNotFoundException {
        NomadRun run = runs.get(taskId);
        if (run == null) {
            return; // idempotent, as Nomad expects
        }
        if (!run.outcome.isDone()) {
            if (!force) {
                throw new IllegalStateException("task " + taskId + " is still running; stop it first or force");
            }
            signalQuietly(run, Signals.SIGKILL);
        }
        driver.destroy(taskId);
        runs.remove(taskId, run);
    }

    /** The run and whether/how it ended. */
    public record Inspection(String id, String name, Instant startedAt, Instant completedAt, ExitResult exit,
            TaskHandle handle) {}

    public Inspection inspect(String taskId) throws TaskNotFoundException {
        NomadRun run = run(taskId);
        NomadRun.Outcome o = run.outcome.getNow(null);
        return new Inspection(run.id, run.taskName, run.startedAt, o == null ? null : o.completedAt(),
                o == null ? null : o.exit(), run.handle);
    }

    /** The Drover handle's state of a run (pid, pgid, sid for the stats of its process tree). */
    public Map<String, String> handleState(String taskId) throws TaskNotFoundException {
        return run(taskId).handle.state();
    }

    public boolean running(String taskId) {
        NomadRun run = runs.get(taskId);
        return run != null && !run.outcome.isDone();
    }

    public int size() {
        return runs.size();
    }

    private void signalQuietly(NomadRun run, String signal) {
        try {
            driver.signal(run.id, signal);
        } catch (DriverException | RuntimeException e) {
            LOG.debug("signal {} to {}: {}", signal, run.id, e.toString());
        }
    }

    private NomadRun run(String taskId) throws TaskNotFoundException {
        NomadRun run = runs.get(taskId);
        if (run == null) {
            throw new TaskNotFoundException(taskId);
        }
        return run;
    }

    /** {@code <alloc_dir>/<task>}, the task's directory Nomad created. */
    static Path taskDir(io.drover.nomad.proto.driver.TaskConfig nomad) {
        SafeName.taskProblem(nomad.getName()).ifPresent(p -> {
            throw new IllegalArgumentException("task name " + SafeName.shown(nomad.getName()) + ": " + p);
        });
        Path allocDir = absolute("alloc_dir", nomad.getAllocDir());
        return allocDir.resolve(nomad.getName());
    }

    private static Path absolute(String field, String value) {
        if (value.isEmpty() || value.indexOf('\0') >= 0 || !Path.of(value).isAbsolute()) {
            throw new IllegalArgumentException(field + ": must be an absolute path, got \"" + value + "\"");
        }
        return Path.of(value).normalize();
    }

    private static TaskConfig droverConfig(io.drover.nomad.proto.driver.TaskConfig nomad, Map<String, Object> config,
            Path taskDir) {
        Path allocDir = absolute("alloc_dir", nomad.getAllocDir());
        Path stdout = absolute("stdout_path", nomad.getStdoutPath());
        Path stderr = absolute("stderr_path", nomad.getStderrPath());
        if (!stdout.startsWith(allocDir) || !stderr.startsWith(allocDir)) {
            throw new IllegalArgumentException("stdout_path and stderr_path must be inside alloc_dir " + allocDir);
        }
        return new TaskConfig(nomad.getId(), nomad.getAllocId(), nomad.getJobId(), nomad.getTaskGroupName(),
                nomad.getName(), config, nomad.getEnvMap(), taskDir, allocDir.resolve("alloc"), stdout, stderr)
                .withResources(resources(nomad));
    }

    /**
     * The task's resources as Nomad's client hands them to a driver ({@code AllocatedTaskResources}: cpu shares =
     * the task's MHz, memory and memory_max in MB); {@link TaskResources#NONE} when it sends none.
     */
    static TaskResources resources(io.drover.nomad.proto.driver.TaskConfig nomad) {
        if (!nomad.hasResources() || !nomad.getResources().hasAllocatedResources()) {
            return TaskResources.NONE;
        }
        var a = nomad.getResources().getAllocatedResources();
        long cpu = a.hasCpu() ? a.getCpu().getCpuShares() : 0;
        long mem = a.hasMemory() ? a.getMemory().getMemoryMb() : 0;
        long max = a.hasMemory() ? a.getMemory().getMemoryMaxMb() : 0;
        return new TaskResources((int) Math.min(Integer.MAX_VALUE, Math.max(0, cpu)),
                (int) Math.min(Integer.MAX_VALUE, Math.max(0, mem)),
                (int) Math.min(Integer.MAX_VALUE, Math.max(-1, max)));
    }
}
