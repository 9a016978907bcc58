package io.drover.core.engine;

import io.drover.core.state.AllocationState;

/**
 * Observes allocation changes. Called on an engine thread after changes of an allocation become durable (in
 * order for one allocation), with the new immutable snapshot. Changes recorded together, or held together while
 * the disk refused writes, come as one snapshot, which carries every event of them. Must return quickly and
 * never block.
 */
@FunctionalInterface
public interface AllocationListener {
    void onUpdate(AllocationState state);
}
