package io.drover.core.engine;

import io.drover.core.artifact.ArtifactGetter;
import io.drover.core.artifact.FetchLimits;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded pool where prestart hooks do their blocking work (artifact downloads, unpacking, git clones), shared
 * by every allocation of the JVM: {@value #THREADS} daemon threads {@code drover-hook-N}, and
 * {@value #HTTP_THREADS} {@code drover-artifact-http-N} for the HTTP client's own work. Work beyond that waits in the queue;
 * an engine thread never waits for it. Created on first use.
 */
final class HookPool {
    static final int THREADS = 4;
    static final int HTTP_THREADS = 2;

    private static final class Holder {
        static final ExecutorService POOL = Executors.newFixedThreadPool(THREADS, named("drover-hook-"));
        static final ExecutorService HTTP = Executors.newFixedThreadPool(HTTP_THREADS, named("drover-artifact-http-"));
        static final ArtifactGetter GETTER = new ArtifactGetter(FetchLimits.DEFAULT, ArtifactGetter.httpClient(HTTP));
    }

    private HookPool() {}

    static ArtifactGetter artifacts() {
        return Holder.GETTER;
    }

    /** A blocking job that can fail with a checked exception; it may be interrupted (its stage was cancelled). */
    interface Work {
        void run() throws Exception;
    }

    /**
     * Runs {@code work} on the pool. Cancelling the returned stage interrupts the work. Non-blocking; any thread.
     */
    static CompletableFuture<Void> submit(Work work) {
        CompletableFuture<Void> stage = new CompletableFuture<>();
        Future<?> running = Holder.POOL.submit(() -> {
            if (stage.isDone()) {
                return;
            }
            try {
                work.run();
                stage.complete(null);
            } catch (Exception | LinkageError e) {
                stage.completeExceptionally(e);
            }
        });
        stage.whenComplete((v, e) -> {
            if (stage.isCancelled()) {
                running.cancel(true);
            }
        });
        return stage;
    }

    private static java.util.concurrent.ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
