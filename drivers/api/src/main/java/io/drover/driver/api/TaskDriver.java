package io.drover.driver.api;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import io.drover.driver.api.schema.ConfigSchema;
import org.pf4j.ExtensionPoint;

/**
 * The extension point a driver plugin implements: runs tasks of one kind ("mock", "raw_exec", "java").
 *
 * <h2>Life of a driver instance</h2>
 * The host creates one instance per driver class (public no-arg constructor), calls {@link #init} once,
 * then any number of {@link #start}s, and {@link #close} when the agent exits. Instances are shared by
 * every task of the driver: all methods may be called concurrently from several host threads.
 *
 * <h2>Threads</h2>
 * Methods are called on the host's engine threads, a small bounded pool that serves every task, and
 * {@link #signal} with {@code SIGKILL} also on the host's timer thread (the kill escalation, sent at its
 * deadline, possibly for a run that has just exited or been destroyed). They must
 * return quickly (no sleeping, no waiting for a process to end): long work completes the returned
 * {@link CompletionStage} later, on a thread of the driver's choosing or on the host's timers
 * ({@link DriverContext#timers()}), which keeps the driver deterministic under the host's virtual clock.
 *
 * <h2>Stopping</h2>
 * Drivers do not implement kill escalation. To stop a task the host sends the task's kill signal through
 * {@link #signal}, waits its kill timeout and then sends {@code SIGKILL}; every driver thus gets the same
 * semantics and the same events. {@code SIGKILL} must end the task: the exit future then completes.
 *
 * <h2>Task ids</h2>
 * The host gives each run of a task a unique {@link TaskConfig#taskId()} (a restart is a new id). A method
 * given an id the driver does not know throws {@link TaskNotFoundException}, which the host reads as
 * "already gone".
 */
public interface TaskDriver extends ExtensionPoint {

    /** The name job files use in {@code driver = "..."}; constant for the instance. */
    String name();

    /** What the driver supports; constant for the instance. */
    Capabilities capabilities();

    /**
     * Called once, before any other method but {@link #name()}, with the host's services and the operator's
     * {@code plugin "<name>" { config { ... } }} block (empty when absent).
     *
     * @throws PluginConfigException when the plugin config block is invalid (unknown key, bad value): a bad agent
     *     config, so the agent does not start; the user gets one line naming the config file and the key
     * @throws DriverException when the driver cannot run here for another reason; the host then skips the driver
     *     with one problem line naming its JAR and the message, and refuses jobs that use it (as an unknown
     *     driver). A driver that can run but is not ready reports it through {@link #health()}.
     */
    void init(DriverContext context) throws DriverException;

    /**
     * Health of the driver on this machine (fingerprint). Cheap; called by {@code plugin status} and before a
     * job that uses the driver is accepted.
     */
    DriverHealth health();

    /**
     * The schema of a task's {@code config { ... }} block. When present the host checks every job's config blocks
     * against it before anything runs (every problem, each with the job file's line and key path) and calls
     * {@link #validateConfig} only for a block the schema accepts; the driver reads the block in {@link #start}
     * through {@link TaskConfig#config(ConfigSchema)}. {@code drover plugin status -verbose} and
     * {@code GET /v1/plugins} show it; a later Drover serves it to Nomad as {@code hclspec}. Constant for the
     * instance; any thread. Empty (the default): the driver checks its blocks itself, in {@link #validateConfig}.
     */
    default Optional<ConfigSchema> taskConfigSchema() {
        return Optional.empty();
    }

    /**
     * The schema of the operator's {@code plugin "<name>" { config { ... } }} block. When present the host checks
     * the block against it before {@link #init} (every problem is a bad agent config naming the file and key, and
     * {@code init} is not called) and hands {@code init} the block with defaults applied; the driver reads it
     * through {@link DriverContext#pluginConfig(ConfigSchema)}. Constant for the instance; may be called before
     * {@code init}. Empty (the default): {@code init} checks the block itself.
     */
    default Optional<ConfigSchema> pluginConfigSchema() {
        return Optional.empty();
    }

    /**
     * Checks a task's {@code config { ... }} block before anything runs, beyond what {@link #taskConfigSchema()}
     * states (e.g. keys that exclude each other); with a schema it is called only for a block the schema accepts.
     * Pure: no side effects, any thread, must not block. The default finds nothing.
     *
     * @return one problem per bad key; empty when the config is valid.
     */
    default List<ConfigProblem> validateConfig(Map<String, Object> config) {
        return List.of();
    }

    /**
     * Starts one run of a task. Not idempotent: each call with a new task id starts a new run.
     *
     * @return completes with the handle once the task runs, or exceptionally with a {@link DriverException}
     *     ({@link DriverException#recoverable()} tells the host whether the restart policy applies).
     */
    CompletionStage<TaskHandle> start(TaskConfig config);

    /**
     * The exit of a started task. May be called any number of times; every call returns a stage completing
     * with the same result once the task has ended.
     *
     * @throws TaskNotFoundException for an unknown id
     */
    CompletionStage<ExitResult> awaitExit(String taskId) throws TaskNotFoundException;

    /**
     * Delivers a signal by name ({@code SIGTERM}, {@code SIGINT}, {@code SIGUSR1}, ..., see {@link Signals}).
     * Returns once the signal is delivered, not when the task reacts. Signalling an exited task is a no-op.
     *
     * @throws TaskNotFoundException for an unknown id
     * @throws DriverException when the signal cannot be delivered
     */
    void signal(String taskId, String signal) throws DriverException;

    /**
     * Runs {@code command} inside a running task, as the task would (its environment, directory, user and, for an
     * isolating driver, its chroot and namespaces), as Nomad's {@code ExecTask}: what a template's {@code
     * change_mode = "script"} runs. Non-blocking (a spawn, no waiting), any thread; not idempotent (each call runs
     * the command once). The command's output is not kept. The default: a driver without exec, as Nomad's
     * {@code DriverExecTaskNotSupported}.
     *
     * @param command argv: the program (looked up as the task would look it up) and its arguments
     * @param timeout then the command's process tree is killed and the stage fails
     * @return completes with how the command ended; exceptionally with a {@link DriverException} when it cannot
     *     run, timed out, or the driver has no exec, or a {@link TaskNotFoundException} for an unknown id
     */
    default CompletionStage<ExitResult> exec(String taskId, List<String> command, java.time.Duration timeout) {
        return java.util.concurrent.CompletableFuture.failedFuture(
                new DriverException(EXEC_NOT_SUPPORTED, false));
    }

    /** What {@link #exec} fails with in a driver that has none (Nomad's words). */
    String EXEC_NOT_SUPPORTED = "ExecTask is not supported by this driver";

    /**
     * Current status of a task. Any thread.
     *
     * @throws TaskNotFoundException for an unknown id
     */
    TaskStatus inspect(String taskId) throws TaskNotFoundException;

    /**
     * Releases everything the driver holds for a task that has exited. Idempotent; an unknown id is a no-op.
     * If the task still runs it is killed first (the host only does this after its own kill sequence).
     */
    void destroy(String taskId);

    /**
     * Re-attaches to a task started by an earlier agent, from the handle that {@link #start} returned and the
     * host persisted. Only called when {@link Capabilities#recover()} is true.
     *
     * @throws TaskNotFoundException when the task is gone and its end cannot be known
     * @throws DriverException when re-attaching failed for another reason
     */
    default TaskHandle recover(TaskHandle handle) throws DriverException {
        throw new DriverException(name() + " cannot recover tasks", false);
    }

    /**
     * Kills whatever an earlier agent started through this driver for a run whose handle the host never recorded:
     * an agent killed between a driver's {@link #start} and the durable record of its handle leaves a run that no
     * {@link #recover} will find (a process leak and a run nobody reports). Called once by the host when it
     * starts, before any {@link #recover} or {@link #start}, on the starting thread; may block for a scan of the
     * machine's processes. Idempotent. The default (a driver whose tasks die with the agent) kills nothing.
     *
     * @param allocRoot the host's allocation directory ({@code data_dir/alloc}): only runs whose task directory is
     *     under it are the host's
     * @param keep the run ids ({@link TaskConfig#taskId()}) whose handles the host recorded: left alone, the host
     *     re-attaches them next
     * @return the run ids whose processes were killed
     */
    default java.util.Set<String> killUnrecordedRuns(java.nio.file.Path allocRoot, java.util.Set<String> keep) {
        return java.util.Set.of();
    }

    /** Called once when the host shuts down; tasks are left running (the host decides about them). */
    default void close() {}
}
