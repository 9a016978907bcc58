package io.drover.driver.api;

/**
 * A driver's view of one task, from {@link TaskDriver#inspect}.
 *
 * @param exit null while the task runs
 */
public record TaskStatus(String taskId, State state, long startedAtNanos, ExitResult exit) {
    public enum State {
        RUNNING,
        EXITED,
        UNKNOWN
    }
}
