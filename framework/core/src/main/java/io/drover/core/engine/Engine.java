package io.drover.core.engine;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Runs allocations of jobs on this machine. Thread-safe: any thread may call it; all allocation state is
 * owned by the allocation's serial executor (see CONCURRENCY.md).
 */
public final class Engine implements AutoCloseable {

    public Engine(EngineConfig config, DriverCatalog drivers, EngineRuntime runtime) {
        throw new UnsupportedOperationException("not written yet");
    }

    /** Places {@code count} allocations of every group of a validated job and starts them. */
    public List<AllocationState> submit(Job job) {
        throw new UnsupportedOperationException("not written yet");
    }

    public Optional<AllocationState> allocation(String id) {
        throw new UnsupportedOperationException("not written yet");
    }

    public List<AllocationState> allocations() {
        throw new UnsupportedOperationException("not written yet");
    }

    /** Completes with the allocation's snapshot once it is terminal (complete or failed). */
    public CompletableFuture<AllocationState> terminal(String allocId) {
        throw new UnsupportedOperationException("not written yet");
    }

    public void addListener(AllocationListener listener) {
        throw new UnsupportedOperationException("not written yet");
    }

    /** Stops an allocation: kills its tasks in stop order, then runs its poststop tasks. Idempotent. */
    public void stop(String allocId) {
        throw new UnsupportedOperationException("not written yet");
    }

    /** Agent shutdown: stops scheduling, leaves tasks running, records nothing. Idempotent. */
    @Override
    public void close() {}
}
