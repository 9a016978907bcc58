package io.drover.testkit;

import io.drover.core.event.TaskEvent;
import java.time.Duration;

/** Assertions on one kill of a task: its {@code Killing} event and the {@code Terminated} event that ended it. */
public final class KillAssert {
    private final TaskAssert task;
    private final TaskEvent killing;
    private final TaskEvent terminated;

    KillAssert(TaskAssert task, TaskEvent killing, TaskEvent terminated) {
        this.task = task;
        this.killing = killing;
        this.terminated = terminated;
    }

    /**
     * The task died exactly {@code d} of virtual time after the {@code Killing} event (the kill signal was
     * sent), e.g. its {@code kill_timeout} when the kill escalated to SIGKILL.
     */
    public KillAssert after(Duration d) {
        Duration actual = Duration.ofNanos(terminated.time() - killing.time());
        if (!actual.equals(d)) {
            throw new AssertionError("expected the kill to end the task " + d + " after the Killing event but it took "
                    + actual);
        }
        return this;
    }

    /** Back to the task's assertions. */
    public TaskAssert and() {
        return task;
    }
}
