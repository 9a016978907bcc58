package io.drover.core.engine;

import io.drover.core.spec.Task;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * What a {@link TaskRunner} needs from its allocation. Implemented by {@link AllocRunner}; every method is
 * called on the allocation's serial executor.
 */
interface TaskRunnerHost {
    String allocId();

    /** The allocation's serial executor: every callback into a task runner must hop onto it. */
    Executor serial();

    /**
     * The same serial executor, with the allocation's next turn ahead of other allocations' ordinary work when it
     * is idle: for timer work that is due now (max_runtime).
     */
    default Executor urgent() {
        return serial();
    }

    Timers timers();

    AllocDirs dirs();

    /**
     * The task's checked paths ({@link TaskPaths}); the allocation derives them once per task.
     *
     * @throws UnsafePathException when the task's name does not give paths inside the allocation's directory
     */
    default TaskPaths paths(String task) throws UnsafePathException {
        return TaskPaths.of(dirs(), task);
    }

    Duration maxKillTimeout();

    /** How long a driver may take to start a run (client {@code driver_start_timeout}). */
    Duration driverStartTimeout();

    Optional<TaskDriver> driver(String name);

    /**
     * Nomad's runtime variables of a task plus what the allocation adds (poststop result variables).
     *
     * @throws UnsafePathException when the task's name does not give a directory inside the allocation's
     */
    Map<String, String> runtimeEnv(Task task) throws UnsafePathException;

    /** Why the allocation could not get its group network's ports; null when it has them (or none are asked). */
    default String networkProblem() {
        return null;
    }

    /**
     * The task's host volume mounts for this run, or why it cannot have them ({@link HostVolumeMounts}); none by
     * default (a host without host volumes).
     */
    default HostVolumeMounts.Result volumeMounts(Task task, java.util.function.UnaryOperator<String> interpolate) {
        return new HostVolumeMounts.Result(java.util.List.of(), null);
    }

    /** The service registry the task's templates read ({@code nomadService}). Any thread. */
    default io.drover.core.service.ServiceCatalog services() {
        return io.drover.core.service.ServiceCatalog.NONE;
    }

    /** The Nomad variables the task's templates read ({@code nomadVar}); null: none. Any thread. */
    default io.drover.core.vars.VariableStore variables() {
        return null;
    }

    /** This node's interpolation variables ({@link EngineConfig#nodeVars}); empty: none. Any thread. */
    default Map<String, String> nodeVars() {
        return Map.of();
    }

    /** The task's merged meta (task over group over job), what {@code ${meta.<key>}} reads. */
    default Map<String, String> meta(Task task) {
        return Map.of();
    }

    /**
     * The handle of the task's current run (what a later agent needs to re-attach), or null once the run ended.
     * The host persists it.
     */
    void taskHandle(TaskRunner runner, io.drover.driver.api.TaskHandle handle);

    /**
     * Runs {@code action} on the serial executor once every change recorded so far is durable (at the next turn
     * when there is no store). A task's first run starts only after its {@code Task Setup} is on disk: a run never
     * exists that the record does not know was about to start.
     */
    void afterDurable(Runnable action);

    /** A task's state changed; {@code transition} when its step changed (the allocation re-evaluates). */
    void taskChanged(TaskRunner runner, boolean transition);
}
