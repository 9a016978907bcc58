package io.drover.agent;

import io.drover.core.engine.AllocationListener;
import io.drover.core.state.AllocationState;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Nomad's {@code CreateIndex}, {@code ModifyIndex} and {@code AllocModifyIndex} of each allocation, from the
 * agent's one {@link RaftIndex}: an allocation takes a new modify index each time a new state of it is durable
 * (this is an {@link AllocationListener}: engine threads, after the store wrote the change, never blocking). An
 * allocation first seen by a read (one restored at agent start) gets its indexes then. In memory: after an
 * agent restart the indexes are new ones, above every index given before (the counter is durable), so a
 * client's blocking query sees a change, never an index going back. Thread-safe.
 */
public final class AllocIndexes implements AllocationListener {
    /** @param allocModifyIndex Nomad's index of the last change of the allocation's desired state */
    public record Indexes(long createIndex, long modifyIndex, long allocModifyIndex) {}

    private final RaftIndex index;
    private final Map<String, Indexes> byAlloc = new ConcurrentHashMap<>();

    public AllocIndexes(RaftIndex index) {
        this.index = index;
    }

    @Override
    public void onUpdate(AllocationState state) {
        long at = index.next();
        byAlloc.compute(state.id(), (id, old) -> old == null ? new Indexes(at, at, at)
                : new Indexes(old.createIndex(), at, desiredChanged(old, state) ? at : old.allocModifyIndex()));
        desired.put(state.id(), state.desiredStatus().toString());
    }

    private final Map<String, String> desired = new ConcurrentHashMap<>();

    private boolean desiredChanged(Indexes old, AllocationState state) {
        return !state.desiredStatus().toString().equals(desired.get(state.id()));
    }

    /** The allocation's indexes, assigned now if it has none yet. */
    public Indexes of(String allocId) {
        return byAlloc.computeIfAbsent(allocId, id -> {
            long at = index.next();
            return new Indexes(at, at, at);
        });
    }

    /** Forgets a purged allocation. */
    public void forget(String allocId) {
        byAlloc.remove(allocId);
        desired.remove(allocId);
    }
}
