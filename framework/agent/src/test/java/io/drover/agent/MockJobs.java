package io.drover.agent;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Jobs of mock tasks built as records, so API tests need no job parser. */
final class MockJobs {
    static final RestartPolicy NO_RESTARTS =
            new RestartPolicy(0, Duration.ofHours(24), Duration.ofSeconds(15), RestartMode.FAIL);

    private MockJobs() {}

    static Job batch(String id, int count, Task... tasks) {
        TaskGroup group = new TaskGroup("g", count, NO_RESTARTS, null, Arrays.asList(tasks), 0);
        return new Job(id, id, JobType.BATCH, List.of("dc1"), List.of(group), "test");
    }

    /** A mock main task; {@code config} alternates keys and values. */
    static Task task(String name, Object... config) {
        return task(name, null, config);
    }

    static Task poststop(String name, Object... config) {
        return task(name, new Lifecycle(LifecycleHook.POSTSTOP, false, null), config);
    }

    private static Task task(String name, Lifecycle lifecycle, Object... config) {
        Map<String, Object> cfg = new LinkedHashMap<>();
        for (int i = 0; i < config.length; i += 2) {
            cfg.put((String) config[i], config[i + 1]);
        }
        return new Task(name, "mock", cfg, Map.of(), false, lifecycle, Duration.ofSeconds(1), "SIGINT",
                Duration.ZERO, null, LogConfig.DEFAULT, NO_RESTARTS, 0);
    }
}
