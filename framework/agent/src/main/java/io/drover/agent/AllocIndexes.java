package io.drover.agent;

import io.drover.core.engine.AllocationListener;
import io.drover.core.state.AllocationState;

/**
 * Nomad's {@code CreateIndex}, {@code ModifyIndex} and {@code AllocModifyIndex} of each allocation, derived from the
 * times its record keeps ({@link RaftIndex#ofNanos}: {@code CreateTime}, {@code ModifyTime}), so they are the same
 * after an agent restart; and, as an {@link AllocationListener} (engine threads, after the store wrote the change,
 * never blocking), a new agent index for every durable new state, which wakes blocking queries. The agent's index
 * is taken after the state is published, so it is at least the allocation's own. Thread-safe, stateless.
 */
public final class AllocIndexes implements AllocationListener {
    /** @param allocModifyIndex Nomad's index of the last server-side change; here the creation's */
    public record Indexes(long createIndex, long modifyIndex, long allocModifyIndex) {}

    private final RaftIndex index;

    public AllocIndexes(RaftIndex index) {
        this.index = index;
    }

    @Override
    public void onUpdate(AllocationState state) {
        index.next();
    }

    /** The allocation's indexes. */
    public static Indexes of(AllocationState a) {
        long create = RaftIndex.ofNanos(a.createTime());
        return new Indexes(create, Math.max(create, RaftIndex.ofNanos(a.modifyTime())), create);
    }
}
