package io.drover.driver.api;

/**
 * A driver's view of one task, from {@link TaskDriver#inspect}.
 *
 * @param exit null while the task runs
 * @param completedAtNanos when the task ended (unix nanoseconds), when the driver knows it better than the moment
 *     it reported the exit — a task that ended while no agent ran, whose end the driver found recorded on
 *     re-attach; -1 otherwise (the host then takes the time it learnt of the exit)
 */
public record TaskStatus(String taskId, State state, long startedAtNanos, ExitResult exit, long completedAtNanos) {
    public enum State {
        RUNNING,
        EXITED,
        UNKNOWN
    }

    /** A status without a completion time of its own. */
    public TaskStatus(String taskId, State state, long startedAtNanos, ExitResult exit) {
        this(taskId, state, startedAtNanos, exit, -1);
    }
}
