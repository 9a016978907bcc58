package io.drover.bench;

/** How a figure stands against its aim. */
public enum Verdict {
    /** The aim is met. */
    MET,
    /** The aim is not met. */
    MISSED,
    /** A figure with no aim (reported for context, e.g. a baseline's own value). */
    INFO,
    /** The bench could not measure (its error is the figure's note). */
    ERROR;

    static Verdict of(boolean met) {
        return met ? MET : MISSED;
    }
}
