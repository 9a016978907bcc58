package io.drover.core.engine;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds jobs of mock tasks for engine tests, with Nomad's defaults. */
final class TestJobs {
    private TestJobs() {}

    static final RestartPolicy NO_RESTARTS =
            new RestartPolicy(0, Duration.ofHours(24), Duration.ofSeconds(15), RestartMode.FAIL);

    static TaskBuilder task(String name) {
        return new TaskBuilder(name);
    }

    static Job batch(TaskBuilder... tasks) {
        return job(JobType.BATCH, 1, tasks);
    }

    static Job job(JobType type, int count, TaskBuilder... tasks) {
        List<Task> built = new ArrayList<>();
        for (TaskBuilder t : tasks) {
            built.add(t.build(type));
        }
        TaskGroup group = new TaskGroup("g", count, type.defaultRestart(), null, built, 0);
        return new Job("example", "example", type, List.of("dc1"), List.of(group), "test");
    }

    static final class TaskBuilder {
        private final String name;
        private final Map<String, Object> config = new LinkedHashMap<>();
        private final Map<String, String> env = new LinkedHashMap<>();
        private boolean leader;
        private Lifecycle lifecycle;
        private Duration killTimeout = Task.DEFAULT_KILL_TIMEOUT;
        private String killSignal = Task.DEFAULT_KILL_SIGNAL;
        private Duration shutdownDelay = Duration.ZERO;
        private Duration maxRuntime;
        private RestartPolicy restart;

        TaskBuilder(String name) {
            this.name = name;
        }

        TaskBuilder cfg(String key, Object value) {
            config.put(key, value);
            return this;
        }

        TaskBuilder runFor(String d) {
            return cfg("run_for", d);
        }

        TaskBuilder env(String key, String value) {
            env.put(key, value);
            return this;
        }

        TaskBuilder leader() {
            leader = true;
            return this;
        }

        TaskBuilder prestart() {
            lifecycle = new Lifecycle(LifecycleHook.PRESTART, false, null);
            return this;
        }

        TaskBuilder prestartSidecar() {
            lifecycle = new Lifecycle(LifecycleHook.PRESTART, true, null);
            return this;
        }

        TaskBuilder poststart() {
            lifecycle = new Lifecycle(LifecycleHook.POSTSTART, false, null);
            return this;
        }

        TaskBuilder poststartSidecar() {
            lifecycle = new Lifecycle(LifecycleHook.POSTSTART, true, null);
            return this;
        }

        TaskBuilder poststop() {
            lifecycle = new Lifecycle(LifecycleHook.POSTSTOP, false, null);
            return this;
        }

        /** A poststop task with its own {@code lifecycle.gc_kill}. */
        TaskBuilder poststop(boolean gcKill) {
            lifecycle = new Lifecycle(LifecycleHook.POSTSTOP, false, gcKill);
            return this;
        }

        TaskBuilder killTimeout(Duration d) {
            killTimeout = d;
            return this;
        }

        TaskBuilder killSignal(String s) {
            killSignal = s;
            return this;
        }

        TaskBuilder shutdownDelay(Duration d) {
            shutdownDelay = d;
            return this;
        }

        TaskBuilder maxRuntime(Duration d) {
            maxRuntime = d;
            return this;
        }

        TaskBuilder restart(RestartPolicy p) {
            restart = p;
            return this;
        }

        Task build(JobType type) {
            return new Task(name, "mock", config, env, leader, lifecycle, killTimeout, killSignal, shutdownDelay,
                    maxRuntime, LogConfig.DEFAULT, restart != null ? restart : type.defaultRestart(), 0);
        }
    }
}
