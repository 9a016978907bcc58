package io.drover.core.store;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Jobs and allocation versions for store tests, shaped like the engine's. */
final class StoreFixtures {
    private StoreFixtures() {}

    static final List<String> TASKS = List.of("setup", "main", "cleanup");

    static Job job(String id) {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("command", "/bin/sh");
        config.put("args", List.of("-c", "echo ${NOMAD_TASK_NAME}"));
        config.put("exit_code", 3L);
        config.put("ratio", 0.25);
        config.put("flag", true);
        config.put("nested", Map.of("k", "v", "n", List.of(1L, 2L)));
        RestartPolicy restart = new RestartPolicy(2, Duration.ofMinutes(30), Duration.ofMillis(1500),
                RestartMode.DELAY);
        Task setup = new Task("setup", "mock", config, Map.of("A", "1"), false,
                new Lifecycle(LifecycleHook.PRESTART, false, null), Duration.ofSeconds(5), "SIGINT",
                Duration.ZERO, null, LogConfig.DEFAULT, restart, 3);
        Task main = new Task("main", "mock", Map.of("run_for", "1s"), Map.of(), true, null,
                Duration.ofSeconds(7), "SIGTERM", Duration.ofMillis(250), Duration.ofHours(1),
                new LogConfig(3, 5), restart, 9);
        Task cleanup = new Task("cleanup", "mock", Map.of(), Map.of(), false,
                new Lifecycle(LifecycleHook.POSTSTOP, false, Boolean.TRUE), Duration.ofSeconds(5), "SIGINT",
                Duration.ZERO, null, LogConfig.DEFAULT, restart, 15);
        TaskGroup group = new TaskGroup("g", 2, restart, Duration.ofHours(2), List.of(setup, main, cleanup), 2);
        return new Job(id, id + "-name", JobType.BATCH, List.of("dc1", "dc2"), List.of(group), id + ".nomad.hcl");
    }

    static AllocationState initial(Job job, String allocId, long createTime) {
        Map<String, TaskState> tasks = new LinkedHashMap<>();
        for (String t : TASKS) {
            tasks.put(t, TaskState.initial());
        }
        return new AllocationState(allocId, job.id() + ".g[0]", job.id(), "g", 0, ClientStatus.PENDING,
                ClientStatus.PENDING.description(), DesiredStatus.RUN, "", createTime, createTime, tasks, job);
    }

    /** The next version: one more event on {@code task} (cycling through event kinds), task fields updated. */
    static AllocationState next(AllocationState s, String task, long time) {
        TaskState t = s.taskStates().get(task);
        int n = t.events().size();
        TaskEvent ev = switch (n % 6) {
            case 0 -> TaskEvents.received(time);
            case 1 -> TaskEvents.taskSetup(time);
            case 2 -> TaskEvents.started(time);
            case 3 -> TaskEvents.terminated(time, new ExitResult(n, 0, false, "exit " + n));
            case 4 -> TaskEvents.restarting(time, Duration.ofMillis(1500), TaskEvents.REASON_WITHIN_POLICY);
            default -> TaskEvents.killing(time, Duration.ofSeconds(5), "SIGINT", "");
        };
        TaskState updated = t.withEvent(ev);
        Instant at = Instant.ofEpochSecond(0, time);
        if (n % 6 == 2) {
            updated = new TaskState(TaskLifeState.RUNNING, false, updated.restarts(), updated.lastRestart(), at,
                    null, updated.events());
        } else if (n % 6 == 3) {
            updated = new TaskState(TaskLifeState.DEAD, n % 2 == 1, updated.restarts(), updated.lastRestart(),
                    updated.startedAt(), at, updated.events());
        } else if (n % 6 == 4) {
            updated = new TaskState(TaskLifeState.PENDING, false, updated.restarts() + 1, at,
                    updated.startedAt(), updated.finishedAt(), updated.events());
        }
        Map<String, TaskState> tasks = new LinkedHashMap<>(s.taskStates());
        tasks.put(task, updated);
        ClientStatus cs = n % 6 >= 2 ? ClientStatus.RUNNING : s.clientStatus();
        return new AllocationState(s.id(), s.name(), s.jobId(), s.taskGroup(), s.index(), cs, cs.description(),
                s.desiredStatus(), s.desiredDescription(), s.createTime(), time, tasks, s.job(),
                s.allocatedResources());
    }

    /** {@code s} after {@code events} more events, spread over its tasks round-robin. */
    static AllocationState advance(AllocationState s, int events, long time) {
        for (int i = 0; i < events; i++) {
            s = next(s, TASKS.get(i % TASKS.size()), time + i);
        }
        return s;
    }

    static AllocationState stopped(AllocationState s, long time) {
        return new AllocationState(s.id(), s.name(), s.jobId(), s.taskGroup(), s.index(), ClientStatus.COMPLETE,
                ClientStatus.COMPLETE.description(), DesiredStatus.STOP, "alloc was stopped", s.createTime(), time,
                s.taskStates(), s.job());
    }
}
