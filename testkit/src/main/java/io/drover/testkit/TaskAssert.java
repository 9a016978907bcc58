package io.drover.testkit;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.util.List;
import java.util.Optional;

/**
 * Assertions on one task of an {@link Allocation} (its final state and its events). Each returns this (or the
 * next assertion object) for chaining, or fails with {@link AssertionError}.
 */
public final class TaskAssert {
    private final AllocationAssert parent;
    private final Allocation alloc;
    private final String task;

    TaskAssert(AllocationAssert parent, Allocation alloc, String task) {
        this.parent = parent;
        this.alloc = alloc;
        this.task = task;
    }

    private TaskState s() {
        return alloc.task(task);
    }

    private AssertionError fail(String what) {
        return new AssertionError("task " + task + " of " + alloc.state().name() + ": " + what + "; its events: "
                + EventsAssert.describe(s().events()));
    }

    /** Its final {@code State} is {@code state}. */
    public TaskAssert state(TaskLifeState state) {
        if (s().state() != state) {
            throw fail("expected State " + state.wireName() + " but it is " + s().state().wireName());
        }
        return this;
    }

    /** {@code Failed} is false. */
    public TaskAssert notFailed() {
        if (s().failed()) {
            throw fail("expected it not to have failed");
        }
        return this;
    }

    /** {@code Failed} is true. */
    public TaskAssert failed() {
        if (!s().failed()) {
            throw fail("expected it to have failed");
        }
        return this;
    }

    /** {@code Restarts} is {@code n}. */
    public TaskAssert restarts(int n) {
        if (s().restarts() != n) {
            throw fail("expected " + n + " restart(s) but it had " + s().restarts());
        }
        return this;
    }

    /** Its last run ended with a {@code Terminated} event of this exit code. */
    public TaskAssert exitCode(int code) {
        TaskEvent last = last(TaskEventType.TERMINATED).orElseThrow(() -> fail("expected an exit but it never terminated"));
        if (last.exitCode() != code) {
            throw fail("expected exit code " + code + " but its last run exited " + last.exitCode());
        }
        return this;
    }

    /** Its first {@code Started} event came exactly {@code sinceSubmit} of virtual time after the job was placed. */
    public TaskAssert startedAt(java.time.Duration sinceSubmit) {
        TaskEvent started = first(TaskEventType.STARTED).orElseThrow(() -> fail("expected it to start but it never did"));
        if (!alloc.sinceSubmit(started).equals(sinceSubmit)) {
            throw fail("expected it to start " + sinceSubmit + " after the job was placed but it started "
                    + alloc.sinceSubmit(started) + " after");
        }
        return this;
    }

    /** It never got a {@code Started} event. */
    public TaskAssert neverStarted() {
        if (first(TaskEventType.STARTED).isPresent()) {
            throw fail("expected it never to start");
        }
        return this;
    }

    /**
     * Its first {@code Started} event was recorded strictly after the other task's last event of {@code type}
     * (in the engine's order, which separates events at one virtual instant). E.g. a poststop task
     * {@code startedAfter("main", TERMINATED)}, a poststart task {@code startedAfter("main", STARTED)}.
     */
    public TaskAssert startedAfter(String otherTask, TaskEventType type) {
        alloc.task(otherTask);
        TimedEvent started = timeline(task, TaskEventType.STARTED, true)
                .orElseThrow(() -> fail("expected it to start after " + otherTask + " " + type.wireName()
                        + " but it never started"));
        TimedEvent other = timeline(otherTask, type, false)
                .orElseThrow(() -> fail("expected it to start after " + otherTask + " " + type.wireName() + " but "
                        + otherTask + " has no " + type.wireName() + " event"));
        if (started.order() <= other.order()) {
            throw fail("expected it to start after " + otherTask + " " + type.wireName() + " (at "
                    + alloc.sinceSubmit(other.event()) + ") but it started at " + alloc.sinceSubmit(started.event())
                    + (started.order() == other.order() ? ", in the same change" : ", before it"));
        }
        return this;
    }

    /**
     * Its (last) kill ended its run with {@code signal}: it has a {@code Killing} event, and the
     * {@code Terminated} event after it carries that signal's number (Nomad's {@code Signal}). So
     * {@code killedWith("SIGKILL")} holds when the kill escalated to SIGKILL, {@code killedWith("SIGINT")} when
     * the task died of its kill_signal. Continue with {@link KillAssert#after} to check when.
     */
    public KillAssert killedWith(String signal) {
        int number = io.drover.driver.api.Signals.number(signal);
        List<TaskEvent> events = s().events();
        int killing = -1;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).type() == TaskEventType.KILLING) {
                killing = i;
            }
        }
        if (killing < 0) {
            throw fail("expected it to be killed with " + signal + " but it has no Killing event");
        }
        for (int i = killing + 1; i < events.size(); i++) {
            TaskEvent e = events.get(i);
            if (e.type() == TaskEventType.TERMINATED) {
                if (e.signal() != number) {
                    throw fail("expected it to be killed with " + signal + " (" + number + ") but its run ended with "
                            + (e.signal() == 0 ? "exit code " + e.exitCode() : "signal " + e.signal()));
                }
                return new KillAssert(this, events.get(killing), e);
            }
        }
        throw fail("expected it to be killed with " + signal + " but no exit followed its Killing event");
    }

    /** Assertions on its events, oldest first. */
    public EventsAssert events() {
        return new EventsAssert(this, task, s().events());
    }

    /** Switches to another task of the same allocation. */
    public TaskAssert task(String name) {
        return parent.task(name);
    }

    /** Back to the allocation's assertions. */
    public AllocationAssert and() {
        return parent;
    }

    private Optional<TaskEvent> first(TaskEventType type) {
        return s().events().stream().filter(e -> e.type() == type).findFirst();
    }

    private Optional<TaskEvent> last(TaskEventType type) {
        return s().events().stream().filter(e -> e.type() == type).reduce((a, b) -> b);
    }

    private Optional<TimedEvent> timeline(String name, TaskEventType type, boolean first) {
        var stream = alloc.timeline().stream().filter(t -> t.task().equals(name) && t.event().type() == type);
        return first ? stream.findFirst() : stream.reduce((a, b) -> b);
    }
}
