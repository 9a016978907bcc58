package io.drover.nomad.task;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.driver.api.TaskHandle;
import io.drover.nomad.wire.MaxRuntime;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What Drover puts in Nomad's {@code TaskHandle.driver_state}, which the Nomad client stores and hands back to
 * {@code RecoverTask}: the Drover driver's own handle (pid, process start time, shim status file, ...), the start
 * time, and the run's max_runtime, so a restarted plugin re-attaches and keeps the original deadline. JSON, with a
 * version. Pure; any thread.
 */
public record DriverState(TaskHandle handle, MaxRuntime maxRuntime) {
    static final int VERSION = 1;
    private static final ObjectMapper JSON = new ObjectMapper();

    public byte[] encode() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("version", VERSION);
        m.put("task_id", handle.taskId());
        m.put("driver", handle.driver());
        m.put("started_at_nanos", handle.startedAtNanos());
        m.put("state", handle.state());
        m.put("max_runtime", maxRuntime.toState());
        try {
            return JSON.writeValueAsBytes(m);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @throws IllegalArgumentException when the bytes are not a driver state this plugin wrote */
    public static DriverState decode(byte[] bytes) {
        Map<String, Object> m;
        try {
            m = JSON.readValue(bytes, new TypeReference<Map<String, Object>>() {});
        } catch (IOException e) {
            throw new IllegalArgumentException("driver_state is not Drover's (not JSON)");
        }
        if (!Integer.valueOf(VERSION).equals(m.get("version"))) {
            throw new IllegalArgumentException("driver_state version " + m.get("version") + " is not " + VERSION);
        }
        try {
            TaskHandle handle = new TaskHandle((String) m.get("task_id"), (String) m.get("driver"),
                    ((Number) m.get("started_at_nanos")).longValue(), strings(m.get("state")));
            return new DriverState(handle, MaxRuntime.fromState(strings(m.get("max_runtime"))));
        } catch (ClassCastException | NullPointerException | NumberFormatException e) {
            throw new IllegalArgumentException("driver_state is incomplete: " + e.getMessage());
        }
    }

    private static Map<String, String> strings(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        ((Map<?, ?>) o).forEach((k, v) -> out.put((String) k, (String) v));
        return out;
    }
}
