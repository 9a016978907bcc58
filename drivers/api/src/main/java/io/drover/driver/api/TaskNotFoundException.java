package io.drover.driver.api;

/** The driver does not know the task id, or cannot find the task any more; the host reads this as "already gone". */
public class TaskNotFoundException extends DriverException {
    public TaskNotFoundException(String taskId) {
        super("task " + taskId + " not found", false);
    }

    /** @param reason why the task cannot be found, e.g. why a {@link TaskDriver#recover} failed */
    public TaskNotFoundException(String taskId, String reason) {
        super("task " + taskId + " not found: " + reason, false);
    }
}
