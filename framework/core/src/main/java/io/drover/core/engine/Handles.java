package io.drover.core.engine;

import io.drover.driver.api.TaskHandle;
import java.util.HashMap;
import java.util.Map;

/**
 * A driver's {@link TaskHandle} as the flat string map the state store keeps: the handle's own fields under
 * reserved {@code drover.*} keys, the driver's state under its own keys. Pure.
 */
final class Handles {
    private static final String TASK_ID = "drover.task_id";
    private static final String DRIVER = "drover.driver";
    private static final String STARTED_AT = "drover.started_at";

    private Handles() {}

    static Map<String, String> toMap(TaskHandle h) {
        Map<String, String> m = new HashMap<>(h.state());
        m.put(TASK_ID, h.taskId());
        m.put(DRIVER, h.driver());
        m.put(STARTED_AT, Long.toString(h.startedAtNanos()));
        return m;
    }

    static TaskHandle fromMap(Map<String, String> m) {
        Map<String, String> state = new HashMap<>(m);
        String taskId = state.remove(TASK_ID);
        String driver = state.remove(DRIVER);
        String startedAt = state.remove(STARTED_AT);
        return new TaskHandle(taskId == null ? "" : taskId, driver == null ? "" : driver,
                startedAt == null ? 0L : Long.parseLong(startedAt), state);
    }
}
