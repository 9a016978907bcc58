package io.drover.core.engine;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Runs a task's {@link TaskHook prestart hooks} in order for one run. Starts on, and always calls back on, the
 * allocation's serial executor; a hook whose stage is already complete is followed in the same turn, one that is
 * pending is followed when it completes (hop back to the serial executor). Never blocks. One chain per run; not
 * reusable.
 */
final class PrestartChain {
    private final List<TaskHook> hooks;
    private final TaskPrep prep;
    private final Executor serial;
    private final Consumer<Throwable> done;
    private final boolean reattach;
    private CompletionStage<Void> pending;
    private boolean cancelled;

    /** @param done called once on the serial executor: null when every hook succeeded, else the failure */
    PrestartChain(List<TaskHook> hooks, TaskPrep prep, Executor serial, Consumer<Throwable> done) {
        this(hooks, prep, serial, done, false);
    }

    /**
     * @param reattach run each hook's {@link TaskHook#reattach} (a run a previous agent started, re-attached)
     *     instead of its {@link TaskHook#prestart}
     */
    PrestartChain(List<TaskHook> hooks, TaskPrep prep, Executor serial, Consumer<Throwable> done, boolean reattach) {
        this.reattach = reattach;
        this.hooks = hooks;
        this.prep = prep;
        this.serial = serial;
        this.done = done;
    }

    void start() {
        next(0);
    }

    /** Whether a hook's asynchronous work is outstanding (the run waits on a download or a render). */
    boolean waiting() {
        return pending != null;
    }

    /** Abandons the chain: the pending work is cancelled, {@code done} is never called. Idempotent. */
    void cancel() {
        cancelled = true;
        if (pending != null) {
            pending.toCompletableFuture().cancel(true);
            pending = null;
        }
    }

    private void next(int i) {
        for (int at = i; at < hooks.size(); at++) {
            if (cancelled) {
                return;
            }
            CompletionStage<Void> stage;
            try {
                stage = reattach ? hooks.get(at).reattach(prep) : hooks.get(at).prestart(prep);
            } catch (HookFailure | RuntimeException e) {
                done.accept(e);
                return;
            }
            var f = stage.toCompletableFuture();
            if (f.isDone()) {
                Throwable err = failure(f);
                if (err != null) {
                    done.accept(err);
                    return;
                }
                continue;
            }
            int following = at + 1;
            pending = stage;
            stage.whenComplete((v, e) -> serial.execute(() -> {
                if (cancelled || pending != stage) {
                    return;
                }
                pending = null;
                if (e != null) {
                    done.accept(unwrap(e));
                    return;
                }
                next(following);
            }));
            return;
        }
        if (!cancelled) {
            done.accept(null);
        }
    }

    private static Throwable failure(java.util.concurrent.CompletableFuture<Void> f) {
        if (!f.isCompletedExceptionally()) {
            return null;
        }
        try {
            f.join();
            return null;
        } catch (CompletionException | CancellationException e) {
            return unwrap(e);
        }
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
    }
}
