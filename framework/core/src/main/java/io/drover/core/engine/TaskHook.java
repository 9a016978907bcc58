package io.drover.core.engine;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One step that prepares a task's run before its driver is asked to start it (Nomad's prestart task hooks: task
 * dir, env, artifacts, templates). The hooks of a task are assembled in one place, {@link TaskHooks}, and run in
 * that order by {@link PrestartChain}.
 *
 * <p>Contract:
 * <ul>
 * <li>{@link #prestart} is called on the allocation's serial executor, before <em>every</em> run (a restart runs
 * the chain again); a hook that acts only once checks {@link TaskPrep#firstRun()}.
 * <li>It must not block: slow work (downloads, rendering) goes to a bounded pool and the returned stage completes,
 * on any thread, when it is done; the chain hops back to the serial executor. A synchronous hook returns
 * {@link #DONE} (the chain then goes on in the same turn, so a chain of synchronous hooks costs no hop).
 * <li>It fails its stage (or throws) with a {@link HookFailure} naming the event to record and whether the restart
 * policy applies; anything else fails the task with a Setup Failure.
 * <li>A stop while the returned stage is pending cancels it ({@code CompletableFuture.cancel}): the work should
 * stop soon after, and its result is ignored either way.
 * <li>{@link #reattach} is called instead, with the same rules, when a restarted agent re-attaches to a run a
 * previous agent started ({@link RunRecovery}): the run is already live, so a hook only rebuilds what it keeps for
 * the run (the env a template reads, the template watch) and never touches what the run already has; by
 * default it does nothing.
 * </ul>
 */
interface TaskHook {
    CompletionStage<Void> DONE = CompletableFuture.completedFuture(null);

    /** A short name for logs ("task_dir", "artifacts"). */
    String name();

    CompletionStage<Void> prestart(TaskPrep prep) throws HookFailure;

    /** A re-attached run (see the contract above): nothing, unless the hook keeps state for its run. */
    default CompletionStage<Void> reattach(TaskPrep prep) throws HookFailure {
        return DONE;
    }
}
