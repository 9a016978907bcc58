package io.drover.process;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Timers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code TaskDriver.exec} in a supervised run: a command spawned beside the task as the task runs (its
 * environment, directory and user, see {@link #like}; an isolating driver wraps it further), its output
 * discarded, its process tree killed when {@code timeout} passes. The process is in a session of its own, so a
 * stop of the task does not reach it: {@link SupervisedTasks} kills the execs still running when it destroys the
 * run. It carries its own run id ({@link UnrecordedRuns#RUN_ID_VAR} {@code <run>.exec-N}), so an exec left
 * running by an agent that died is killed by the next agent's scan of unrecorded runs.
 *
 * <p>Non-blocking: a spawn (about a millisecond) and a timer; the stage completes on the supervisor's reaper
 * thread. Thread-safe.
 */
public final class RunExec {
    private static final Path DEV_NULL = Path.of("/dev/null");

    private RunExec() {}

    /**
     * What an exec is built from.
     *
     * @param taskId the run's id
     * @param spec how this agent started the run; null for a run re-attached from an earlier agent
     * @param process the run's process (the shim's, for a run under the shim)
     * @param n this exec's number in the run, from 1
     */
    public record Run(String taskId, SpawnSpec spec, SupervisedProcess process, int n) {
        /** The run's id for this exec: a later agent's scan kills it unless it is recorded. */
        String execId() {
            return taskId + ".exec-" + n;
        }

        /** The task directory: where the run's shim records its exit, else its work directory. */
        public Path taskDir() {
            Path status = spec != null ? spec.statusFile() : process.statusFile().orElse(null);
            if (status != null) {
                return status.getParent();
            }
            if (spec == null) {
                throw new IllegalStateException("a re-attached run without a shim");
            }
            return spec.workDir();
        }

        /**
         * The task's own pid: the shim's child for a run under the shim ({@code /proc/SHIM/task/SHIM/children}),
         * else the run's process; -1 when the task is gone.
         */
        public int taskPid() {
            if (process.statusFile().isEmpty()) {
                return process.pid();
            }
            int[] children = ShimKill.children(process.pid());
            return children.length == 0 ? -1 : children[0];
        }
    }

    /**
     * The exec as the task itself runs: {@code command} looked up on the task's PATH from its work directory, the
     * run's environment with this exec's run id, the task's user (under the shim, with a status file of its own in
     * the task directory), output to {@code /dev/null}.
     *
     * @throws DriverException for a run re-attached from an earlier agent (its start is unknown here) or an empty
     *     command
     */
    public static SpawnSpec like(Run run, List<String> command) throws DriverException {
        if (run.spec() == null) {
            throw new DriverException("exec is not available for a run re-attached from an earlier agent", false);
        }
        return around(run, command, run.spec().workDir(), run.spec().env(), run.spec().user());
    }

    /**
     * An exec of {@code command} with {@code env} (this exec's run id added), from {@code workDir}, as {@code user}
     * (null: the agent's user), output to {@code /dev/null}.
     */
    public static SpawnSpec around(Run run, List<String> command, Path workDir, Map<String, String> env,
            TaskUser user) throws DriverException {
        if (command.isEmpty() || command.get(0).isEmpty()) {
            throw new DriverException("exec: no command", false);
        }
        Map<String, String> all = new HashMap<>(env);
        all.put(UnrecordedRuns.RUN_ID_VAR, run.execId());
        all.putIfAbsent(UnrecordedRuns.RUN_DIR_VAR, run.taskDir().toString());
        Path status = user == null ? null
                : run.taskDir().resolve(".drover-exit." + run.execId().replaceAll("[^A-Za-z0-9._-]", "_"));
        return new SpawnSpec(command.get(0), command.subList(1, command.size()), all, workDir, DEV_NULL, DEV_NULL,
                null, status, user);
    }

    /**
     * Spawns {@code spec}; the stage completes with its exit, or fails when it cannot start or {@code timeout}
     * passed first (its tree is then killed). {@code started} gets the process at once (to be killed with the run).
     */
    static CompletionStage<ExitResult> start(ProcessSupervisor supervisor, Timers timers, SpawnSpec spec,
            Duration timeout, java.util.function.Consumer<SupervisedProcess> started) {
        SupervisedProcess p;
        try {
            p = supervisor.spawn(spec);
        } catch (SpawnException e) {
            return CompletableFuture.failedFuture(new DriverException(e.getMessage(), false, e));
        }
        started.accept(p);
        CompletableFuture<ExitResult> out = new CompletableFuture<>();
        AtomicBoolean timedOut = new AtomicBoolean();
        Timers.Cancellable timer = timers.schedule(timeout, () -> {
            if (p.exitNow().isEmpty()) {
                timedOut.set(true);
                p.killTree();
            }
        });
        p.onExit().whenComplete((r, e) -> {
            timer.cancel();
            if (spec.statusFile() != null) {
                try {
                    Files.deleteIfExists(spec.statusFile());
                } catch (java.io.IOException ignored) {
                    // left for the allocation's GC
                }
            }
            if (timedOut.get()) {
                out.completeExceptionally(new DriverException("timed out after " + shown(timeout)
                        + "; killed", false));
            } else if (e != null) {
                out.completeExceptionally(e);
            } else {
                out.complete(r);
            }
        });
        return out;
    }

    private static String shown(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
