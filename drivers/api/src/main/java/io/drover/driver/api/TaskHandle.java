package io.drover.driver.api;

import java.util.Map;

/**
 * What a driver returns for a started task and the host persists, so that a later agent can
 * {@link TaskDriver#recover} the task. {@code state} is the driver's own, opaque to the host (pid, process
 * start time, ...).
 *
 * @param startedAtNanos when the task started, unix nanoseconds on the host's clock
 */
public record TaskHandle(String taskId, String driver, long startedAtNanos, Map<String, String> state) {
    public TaskHandle {
        state = Map.copyOf(state);
    }
}
