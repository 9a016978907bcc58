package io.drover.testkit;

import io.drover.core.state.ClientStatus;
import java.util.Arrays;

/** Assertions on one {@link Allocation}; each returns this for chaining, or fails with {@link AssertionError}. */
public final class AllocationAssert {
    private final Allocation alloc;

    AllocationAssert(Allocation alloc) {
        this.alloc = alloc;
    }

    /** Its {@code ClientStatus} is {@code status}. */
    public AllocationAssert hasStatus(ClientStatus status) {
        if (alloc.state().clientStatus() != status) {
            throw new AssertionError("expected allocation " + alloc.state().name() + " to be " + status.wireName()
                    + " but it is " + alloc.state().clientStatus().wireName() + "; failed tasks: "
                    + alloc.state().taskStates().entrySet().stream().filter(e -> e.getValue().failed())
                            .map(java.util.Map.Entry::getKey).toList());
        }
        return this;
    }

    /** {@code complete}: every task dead, none failed. */
    public AllocationAssert isComplete() {
        return hasStatus(ClientStatus.COMPLETE);
    }

    /** {@code failed}: every task dead, at least one failed. */
    public AllocationAssert isFailed() {
        return hasStatus(ClientStatus.FAILED);
    }

    /**
     * The tasks became {@code dead} in this order, each strictly after the one before it (in the engine's order of
     * changes, which also separates changes at one virtual instant).
     */
    public AllocationAssert tasksDiedInOrder(String... tasks) {
        int previous = -1;
        String before = null;
        for (String t : tasks) {
            alloc.task(t);
            int at = alloc.diedAt(t).orElseThrow(() -> new AssertionError("task " + t + " never died"));
            if (at <= previous) {
                throw new AssertionError("expected task " + t + " to die after " + before + " (order "
                        + Arrays.toString(tasks) + "), but it died " + (at == previous ? "in the same change" : "before"));
            }
            previous = at;
            before = t;
        }
        return this;
    }

    /** Assertions on one task; fails when the allocation has no such task. */
    public TaskAssert task(String name) {
        alloc.task(name);
        return new TaskAssert(this, alloc, name);
    }
}
