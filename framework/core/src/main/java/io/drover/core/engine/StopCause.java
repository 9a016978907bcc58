package io.drover.core.engine;

/** Why an allocation's tasks are being stopped; decides the event each live task gets first. */
enum StopCause {
    /** Every main task is done: sidecars get {@code Main Tasks Dead}. */
    MAIN_DEAD,
    /** The leader died: the others get {@code Leader Task Dead}. */
    LEADER_DEAD,
    /** A task failed: the others get {@code Sibling Task Failed}. */
    SIBLING_FAILED,
    /** Someone asked (alloc stop, job stop, Ctrl-C): no extra event. */
    STOP_REQUESTED
}
