package io.drover.core.engine;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionStage;

/** Delegates to a real driver and records every start and signal, in call order ("start web", "SIGINT web"). */
final class RecordingDriver extends ForwardingTaskDriver {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    RecordingDriver(TaskDriver delegate) {
        super(delegate);
    }

    private static String task(String taskId) {
        String[] parts = taskId.split("/");
        return parts.length >= 2 ? parts[1] : taskId;
    }

    @Override
    public CompletionStage<TaskHandle> start(TaskConfig config) {
        calls.add("start " + config.taskName());
        return super.start(config);
    }

    @Override
    public void signal(String taskId, String signal) throws DriverException {
        calls.add(signal + " " + task(taskId));
        super.signal(taskId, signal);
    }
}
