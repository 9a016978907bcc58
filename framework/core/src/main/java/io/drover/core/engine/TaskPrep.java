package io.drover.core.engine;

import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Task;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the prestart hooks build for one run: the task's environment and its interpolated driver config. Created
 * by the task runner for each run, filled by the hooks in order, read once by the runner when it starts the
 * driver. Only touched on the allocation's serial executor (a hook's pool work hands its result back through
 * its stage, and the hook applies it in its completion on the serial executor, or before completing).
 */
final class TaskPrep {
    private final Task task;
    private final int run;
    private final boolean firstRun;
    private final Map<String, String> env = new LinkedHashMap<>();
    private Map<String, Object> config;
    private Map<String, String> vars = Map.of();
    private java.util.List<io.drover.driver.api.MountConfig> mounts = java.util.List.of();

    private final Consumer<TaskEvent> events;

    TaskPrep(Task task, int run, boolean firstRun) {
        this(task, run, firstRun, e -> {});
    }

    /** @param events records an event of the task (serial executor only) */
    TaskPrep(Task task, int run, boolean firstRun, Consumer<TaskEvent> events) {
        this.task = task;
        this.run = run;
        this.firstRun = firstRun;
        this.config = task.config();
        this.events = events;
    }

    /** Records a task event (Downloading Artifacts ...). Serial executor only. */
    void record(TaskEvent event) {
        events.accept(event);
    }

    Task task() {
        return task;
    }

    int run() {
        return run;
    }

    /** The task's first run since it was received (not a restart, not after a recovery of a started task). */
    boolean firstRun() {
        return firstRun;
    }

    /** The run's environment, mutable, in insertion order (later hooks add and override). */
    Map<String, String> env() {
        return env;
    }

    Map<String, Object> config() {
        return config;
    }

    /** What {@code ${...}} resolves against: the env plus {@code meta.<key>} (set by {@link TaskEnvHook}). */
    Map<String, String> vars() {
        return vars;
    }

    void vars(Map<String, String> vars) {
        this.vars = vars;
    }

    void config(Map<String, Object> config) {
        this.config = config;
    }

    /** The host volumes the driver mounts into this run ({@link VolumeHook}); empty when none. */
    java.util.List<io.drover.driver.api.MountConfig> mounts() {
        return mounts;
    }

    void mounts(java.util.List<io.drover.driver.api.MountConfig> mounts) {
        this.mounts = java.util.List.copyOf(mounts);
    }
}
