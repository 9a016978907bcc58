package io.drover.driver.api;

/** The driver does not know the task id; the host reads this as "already gone". */
public class TaskNotFoundException extends DriverException {
    public TaskNotFoundException(String taskId) {
        super("task " + taskId + " not found", false);
    }
}
