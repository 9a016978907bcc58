package io.drover.core.engine;

import io.drover.core.state.AllocationState;

/**
 * Observes allocation changes. Called on an engine thread after every change of an allocation (in order for
 * one allocation), with the new immutable snapshot. Must return quickly and never block.
 */
@FunctionalInterface
public interface AllocationListener {
    void onUpdate(AllocationState state);
}
