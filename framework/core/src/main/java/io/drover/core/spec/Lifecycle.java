package io.drover.core.spec;

/**
 * A task's {@code lifecycle} block.
 *
 * @param gcKill {@code gc_kill}: overrides the client's kill policy for this task; null when unset
 */
public record Lifecycle(LifecycleHook hook, boolean sidecar, Boolean gcKill) {}
