package io.drover.core.engine;

/** What {@link Engine#destroy} did. */
public enum DestroyOutcome {
    /** The allocation directory is gone and every task got a {@code Garbage Collected} event. */
    DESTROYED,
    /** GC had destroyed it before: nothing changed. */
    ALREADY_DESTROYED,
    /**
     * It is live (or a poststop task the kill policy keeps is running): nothing changed, GC skips it. Under
     * {@code preserve_states} a running poststop task keeps its allocation out of GC.
     */
    SKIPPED_LIVE,
    /** No such allocation (purged, or never placed). */
    UNKNOWN
}
