package io.drover.cli.run;

import io.drover.core.engine.Engine;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Submits jobs to an engine and waits until every allocation they placed is terminal. {@link #stopAll()} (the
 * Ctrl-C path; any thread) stops every allocation placed so far and any placed while it runs, and prevents
 * further submissions; the wait then ends once the stopped allocations have finished their poststop tasks.
 */
final class JobRunner {
    private final Engine engine;
    private final List<String> placed = new CopyOnWriteArrayList<>();
    private volatile boolean stopping;

    JobRunner(Engine engine) {
        this.engine = engine;
    }

    /** @return the terminal snapshot of every allocation, in placement order (jobs in the given order) */
    List<AllocationState> runToEnd(List<Job> jobs) {
        List<CompletableFuture<AllocationState>> futures = new ArrayList<>();
        for (Job job : jobs) {
            if (stopping) {
                break;
            }
            for (AllocationState alloc : engine.submit(job)) {
                placed.add(alloc.id());
                futures.add(engine.terminal(alloc.id()));
            }
        }
        if (stopping) {
            stopPlaced(); // allocations placed while stopAll() ran; stop is idempotent
        }
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
        return futures.stream().map(CompletableFuture::join).toList();
    }

    void stopAll() {
        stopping = true;
        stopPlaced();
    }

    private void stopPlaced() {
        placed.forEach(engine::stop);
    }
}
