package io.drover.cli.format;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.time.Nanos;
import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Fabricated allocations: the seed's job (a main task and a poststop task), both finished, at fixed times. */
final class Fixtures {
    static final String ALLOC_ID = "3c584bf6-98fc-ccab-bf42-f7a8bfded3be";
    /** 2023-07-17T20:28:14.100Z, the seed's run. */
    static final Instant T0 = Instant.parse("2023-07-17T20:28:14.100Z");

    private Fixtures() {}

    static Task task(String name, Lifecycle lifecycle) {
        return new Task(name, "raw_exec", Map.of("command", "echo"), Map.of(), false, lifecycle,
                Task.DEFAULT_KILL_TIMEOUT, Task.DEFAULT_KILL_SIGNAL, Duration.ZERO, null, LogConfig.DEFAULT,
                RestartPolicy.BATCH_DEFAULT, 0);
    }

    static Job seedJob() {
        TaskGroup group = new TaskGroup("test-group", 1, RestartPolicy.BATCH_DEFAULT, null, List.of(
                task("test-task", null),
                task("poststop", new Lifecycle(LifecycleHook.POSTSTOP, false, null))), 0);
        return new Job("example", "example", JobType.BATCH, List.of("dc1"), List.of(group), "job_spec.hcl");
    }

    static long at(long millis) {
        return Nanos.of(T0.plusMillis(millis));
    }

    /** A task that was received at {@code startMillis} and exited 0 ten milliseconds after starting. */
    static TaskState finished(long startMillis) {
        List<TaskEvent> events = List.of(
                TaskEvents.received(at(startMillis)),
                TaskEvents.taskSetup(at(startMillis + 1)),
                TaskEvents.started(at(startMillis + 2)),
                TaskEvents.terminated(at(startMillis + 12), ExitResult.code(0)));
        return new TaskState(TaskLifeState.DEAD, false, 0, null, T0.plusMillis(startMillis + 2),
                T0.plusMillis(startMillis + 12), events);
    }

    static AllocationState seedAlloc() {
        Map<String, TaskState> states = new LinkedHashMap<>();
        states.put("test-task", finished(0));
        states.put("poststop", finished(20));
        return new AllocationState(ALLOC_ID, "example.test-group[0]", "example", "test-group", 0,
                ClientStatus.COMPLETE, "All tasks have completed", DesiredStatus.RUN, "", at(0), at(40), states,
                seedJob());
    }
}
