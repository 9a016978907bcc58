package io.drover.core.engine;

import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's table of allocations by id (placed, resumed, not purged yet) and the count of their live tasks.
 * Thread-safe and lock-free: any thread adds, removes and reads (a concurrent map, an atomic counter); what it
 * answers is a snapshot that may be stale by the time it is read. It holds runners only: each runner's state is
 * owned by its own serial executor (CONCURRENCY.md).
 */
final class AllocTable {
    private static final Comparator<AllocationState> OLDEST_FIRST =
            Comparator.comparingLong(AllocationState::createTime).thenComparing(AllocationState::id);

    private final Map<String, AllocRunner> allocs = new ConcurrentHashMap<>();
    /** Tasks of allocations placed or resumed and not terminal yet. */
    private final AtomicLong liveTasks = new AtomicLong();

    /** Adds a runner under its id; not idempotent for the live count: call once per runner. */
    void add(AllocRunner runner) {
        allocs.put(runner.id(), runner);
    }

    /** Counts the allocation's tasks as live until it is terminal. Call once per runner that is not terminal. */
    void countLive(AllocRunner runner, TaskGroup group) {
        int n = group.tasks().size();
        liveTasks.addAndGet(n);
        runner.terminal().whenComplete((s, e) -> liveTasks.addAndGet(-n));
    }

    /** The runner of this id, or null. */
    AllocRunner get(String id) {
        return allocs.get(id);
    }

    /** Forgets the runner of this id; idempotent. */
    void remove(String id) {
        allocs.remove(id);
    }

    long liveTasks() {
        return liveTasks.get();
    }

    Optional<AllocationState> allocation(String id) {
        return Optional.ofNullable(allocs.get(id)).map(AllocRunner::snapshot);
    }

    CompletableFuture<Void> recorded(List<String> allocIds) {
        return CompletableFuture.allOf(allocIds.stream().map(allocs::get).filter(Objects::nonNull)
                .map(AllocRunner::recorded).toArray(CompletableFuture[]::new));
    }

    boolean isRecorded(String allocId) {
        AllocRunner runner = allocs.get(allocId);
        return runner != null && runner.recorded().isDone();
    }

    List<AllocationState> recordedAllocations() {
        return allocs.values().stream().filter(r -> r.recorded().isDone()).map(AllocRunner::snapshot)
                .sorted(OLDEST_FIRST).toList();
    }

    List<AllocationState> snapshots() {
        List<AllocationState> out = new ArrayList<>(allocs.size());
        for (AllocRunner r : allocs.values()) {
            out.add(r.snapshot());
        }
        return out;
    }

    List<AllocationState> allocations() {
        return allocs.values().stream().map(AllocRunner::snapshot).sorted(OLDEST_FIRST).toList();
    }

    CompletableFuture<AllocationState> terminal(String allocId) {
        AllocRunner runner = allocs.get(allocId);
        if (runner == null) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("no allocation " + allocId));
        }
        return runner.terminal();
    }
}
