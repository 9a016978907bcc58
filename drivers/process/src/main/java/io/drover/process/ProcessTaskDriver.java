package io.drover.process;

import io.drover.driver.api.Capabilities;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The part of a driver whose tasks are supervised processes (raw_exec, exec, java) that does not depend on how
 * it builds the command: the task table ({@link SupervisedTasks}), the supervisor (native binding and watcher
 * thread, created on first use or eagerly by {@link #supervisor()} from {@code init}), and every
 * {@code TaskDriver} method after the start — exit, signals to the group, inspect, tree kill, unrecorded runs,
 * close. Subclasses implement {@code init} (calling {@link #initTasks}), {@code health}, {@code validateConfig},
 * {@code start} (ending in {@link #spawn}) and {@code recover}. Thread-safe; no method blocks on a task.
 */
public abstract class ProcessTaskDriver implements TaskDriver {
    private final String name;
    private volatile SupervisedTasks tasks;
    private ProcessSupervisor supervisor; // guarded by this
    private boolean closed; // guarded by this

    protected ProcessTaskDriver(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public Capabilities capabilities() {
        return new Capabilities(true, true);
    }

    /** Creates the task table; called from {@code init}, before any other method. */
    protected final void initTasks(DriverContext context) {
        tasks = new SupervisedTasks(name, context.timers());
    }

    /** @throws IllegalStateException before {@link #initTasks} */
    protected final SupervisedTasks tasks() {
        SupervisedTasks t = tasks;
        if (t == null) {
            throw new IllegalStateException("the " + name + " driver is not initialised");
        }
        return t;
    }

    /**
     * The supervisor, created on the first call (loads the native binding, ~0.3 s, and starts the watcher thread).
     *
     * @throws DriverException when the driver is closed or this platform has no binding
     */
    protected final synchronized ProcessSupervisor supervisor() throws DriverException {
        if (closed) {
            throw new DriverException("the " + name + " driver is closed", false);
        }
        if (supervisor == null) {
            try {
                supervisor = ProcessSupervisor.create(name);
            } catch (UnsupportedOperationException e) {
                throw new DriverException(e.getMessage(), false, e);
            }
        }
        return supervisor;
    }

    /**
     * Starts {@code spec} as the task's run on the supervisor (created on first use); a closed driver or a missing
     * binding comes back as a failed stage, like every start failure.
     */
    protected final CompletionStage<TaskHandle> spawn(TaskConfig task, SpawnSpec spec) {
        try {
            return tasks().start(task, supervisor(), spec);
        } catch (DriverException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Runs {@code command} in the run beside the task, as the task runs ({@link #execSpec}); see {@link RunExec}.
     * Non-blocking.
     */
    @Override
    public final CompletionStage<ExitResult> exec(String taskId, java.util.List<String> command,
            java.time.Duration timeout) {
        try {
            return tasks().exec(taskId, supervisor(), this::execSpec, command, timeout);
        } catch (DriverException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * How an exec in a run is spawned: by default as the task itself runs ({@link RunExec#like}: its environment,
     * work directory and user). An isolating driver wraps it into the task's isolation.
     */
    protected SpawnSpec execSpec(RunExec.Run run, java.util.List<String> command) throws DriverException {
        return RunExec.like(run, command);
    }

    /** Kills the runs an earlier agent started but never recorded (see {@link SupervisedTasks#killUnrecordedRuns}). */
    @Override
    public final Set<String> killUnrecordedRuns(Path allocRoot, Set<String> keep) {
        return tasks().killUnrecordedRuns(allocRoot, keep);
    }

    @Override
    public final CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException {
        return tasks().awaitExit(taskId);
    }

    @Override
    public final void signal(String taskId, String signal) throws DriverException {
        tasks().signal(taskId, signal);
    }

    @Override
    public final TaskStatus inspect(String taskId) throws TaskNotFoundException {
        return tasks().inspect(taskId);
    }

    /** The latest tree kill of a task, with the processes that survived it; empty when none was started. */
    public final Optional<CompletionStage<KillReport>> lastKill(String taskId) throws TaskNotFoundException {
        return tasks().lastKill(taskId);
    }

    /** Forgets the task after killing its tree (see {@link SupervisedTasks#destroy}). Idempotent; no waiting. */
    @Override
    public final void destroy(String taskId) {
        SupervisedTasks t = tasks;
        if (t != null) {
            t.destroy(taskId);
        }
    }

    /** Stops the watcher thread if one was started; running tasks are left alone (the host decides about them). */
    @Override
    public synchronized void close() {
        closed = true;
        if (supervisor != null) {
            supervisor.close();
        }
    }
}
