package io.drover.core.gc;

/**
 * An allocation GC chose to destroy.
 *
 * @param killsPoststop it is live with only poststop tasks left, which the destroy kills (kill_poststop or gc_kill)
 */
public record GcVictim(String allocId, GcReason reason, boolean killsPoststop) {}
