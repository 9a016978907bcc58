package io.drover.core.engine;

import io.drover.core.time.RealTimers;
import io.drover.driver.api.Timers;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine's threads and time: a bounded worker pool shared by every allocation, and timers. Real in an
 * agent; a virtual clock and a manually drained executor in tests.
 */
public record EngineRuntime(Timers timers, Executor executor, AutoCloseable resources) implements AutoCloseable {

    /** Wall-clock timers and {@code workers} daemon threads, with an urgent lane for timer work ({@link EnginePool}). */
    public static EngineRuntime real(int workers) {
        return real(workers, false);
    }

    /**
     * As {@link #real(int)}; with {@code raiseTimer} (the agent) the timer thread runs at a raised priority where
     * the process may ({@link RealTimers#raisePriority()}).
     */
    public static EngineRuntime real(int workers, boolean raiseTimer) {
        RealTimers timers = new RealTimers();
        if (raiseTimer) {
            timers.raisePriority();
        }
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = new EnginePool(workers, r -> {
            Thread t = new Thread(r, "drover-engine-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        // Every worker now, from this (normal-priority) thread: a worker created on demand by a raised thread (the timer,
        // or a driver's reaper completing an exit) would inherit its nice -10 and pass it to the tasks it spawns.
        ((EnginePool) pool).prestartAllCoreThreads();
        return new EngineRuntime(timers, pool, () -> {
            pool.shutdownNow();
            timers.close();
        });
    }

    @Override
    public void close() throws Exception {
        if (resources != null) {
            resources.close();
        }
    }
}
