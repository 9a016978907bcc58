package io.drover.agent.http;

import io.drover.agent.RaftIndex;
import io.drover.core.spec.parse.GoDurations;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Nomad's blocking queries: a {@code GET} with {@code ?index=N} is answered once the agent's index
 * ({@link RaftIndex}) is above N, or when its {@code wait} ends (Nomad's default 5 minutes, at most 10; a Go
 * duration such as {@code 5000ms} or {@code 30s}), with whatever the route then shows. A waiting request holds no
 * thread: its exchange is detached and parked here, and the change that wakes it (on the engine or API thread
 * that took the new index) or its wait's end (on the one {@code drover-api-blocking-timer} thread) only hands
 * the route's handler to the server's pool. At most {@value #MAX_WAITING} requests wait at once (Nomad may
 * answer a blocking query early; past the bound, one is answered at once). Thread-safe.
 *
 * <p>Every change of the agent wakes every waiting query (the index is one for the whole agent, as if each route
 * read every table); the client compares what it got and asks again, as Nomad's clients do.
 */
final class BlockingQueries implements AutoCloseable {
    static final int MAX_WAITING = 1024;
    static final Duration DEFAULT_WAIT = Duration.ofMinutes(5);
    static final Duration MAX_WAIT = Duration.ofMinutes(10);

    private final RaftIndex index;
    private final Executor pool;
    private final ScheduledExecutorService timer;
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** One parked request: answered exactly once. */
    private final class Waiter {
        final long above;
        final ApiRequest request;
        final Router.Handler handler;
        final BiConsumer<ApiRequest, Router.Handler> run;
        final AtomicBoolean done = new AtomicBoolean();
        volatile ScheduledFuture<?> timeout;

        Waiter(long above, ApiRequest request, Router.Handler handler, BiConsumer<ApiRequest, Router.Handler> run) {
            this.above = above;
            this.request = request;
            this.handler = handler;
            this.run = run;
        }

        void fire() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            waiting.remove(this);
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
            try {
                pool.execute(() -> {
                    request.reattach();
                    run.accept(request, handler);
                });
            } catch (RuntimeException e) { // the pool is stopping: end the exchange here
                request.abort(e);
            }
        }
    }

    BlockingQueries(RaftIndex index, Executor pool) {
        this.index = index;
        this.pool = pool;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "drover-api-blocking-timer");
            t.setDaemon(true);
            return t;
        });
        index.onChange(this::changed);
    }

    /** Waiting requests now. */
    int waiting() {
        return waiting.size();
    }

    /**
     * Parks a {@code GET ?index=} whose index is not passed yet.
     *
     * @return true when the request was parked (it is answered later through {@code run}); false when it is to be
     *     answered now
     * @throws ApiException 400 for an {@code index} or {@code wait} that is not one
     */
    boolean park(ApiRequest request, Router.Handler handler, BiConsumer<ApiRequest, Router.Handler> run)
            throws ApiException {
        if (!request.method().equals("GET")) {
            return false;
        }
        String raw = request.query("index");
        if (raw == null || raw.isEmpty()) {
            return false;
        }
        long above;
        try {
            above = Long.parseUnsignedLong(raw);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("query parameter index must be an unsigned integer, not \"" + raw + "\"");
        }
        Duration wait = waitOf(request.query("wait"));
        if (closed || above == 0 || index.current() > above || Long.compareUnsigned(above, Long.MAX_VALUE) > 0
                || waiting.size() >= MAX_WAITING || wait.isZero()) {
            return false;
        }
        request.detach();
        Waiter w = new Waiter(above, request, handler, run);
        waiting.add(w);
        w.timeout = timer.schedule(w::fire, wait.toMillis(), TimeUnit.MILLISECONDS);
        if (index.current() > above || closed) { // changed while it was being parked
            w.fire();
        }
        return true;
    }

    static Duration waitOf(String raw) throws ApiException {
        if (raw == null || raw.isEmpty()) {
            return DEFAULT_WAIT;
        }
        Duration d;
        try {
            d = raw.chars().allMatch(Character::isDigit) ? Duration.ofMillis(Long.parseLong(raw))
                    : GoDurations.parse(raw);
        } catch (RuntimeException e) {
            throw ApiException.badRequest("query parameter wait must be a duration such as 5000ms or 30s, not \""
                    + raw + "\"");
        }
        if (d.isNegative()) {
            throw ApiException.badRequest("query parameter wait must not be negative: \"" + raw + "\"");
        }
        return d.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : d;
    }

    private void changed(long now) {
        if (waiting.isEmpty()) {
            return;
        }
        for (Waiter w : waiting) {
            if (now > w.above) {
                w.fire();
            }
        }
    }

    /** Answers every waiting request now (agent shutdown), then stops the timer. */
    @Override
    public void close() {
        closed = true;
        for (Waiter w : waiting) {
            w.fire();
        }
        timer.shutdownNow();
    }
}
