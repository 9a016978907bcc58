package io.drover.testkit;

import io.drover.core.event.TaskEvent;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One allocation that the kit ran to its end: the final state and every state the engine published on the way.
 * Immutable. Assert on it with {@link DroverAssertions#assertThat(Allocation)}.
 */
public final class Allocation {
    private final AllocationState state;
    private final List<AllocationState> history;
    private final List<TimedEvent> timeline;
    private final Instant submittedAt;

    Allocation(List<AllocationState> history, Instant submittedAt) {
        if (history.isEmpty()) {
            throw new IllegalArgumentException("an allocation has at least one published state");
        }
        this.history = List.copyOf(history);
        this.state = this.history.get(this.history.size() - 1);
        this.submittedAt = submittedAt;
        this.timeline = buildTimeline(this.history);
    }

    private static List<TimedEvent> buildTimeline(List<AllocationState> history) {
        List<TimedEvent> out = new ArrayList<>();
        Map<String, TaskState> previous = Map.of();
        for (int i = 0; i < history.size(); i++) {
            Map<String, TaskState> now = history.get(i).taskStates();
            for (Map.Entry<String, TaskState> e : now.entrySet()) {
                TaskState before = previous.get(e.getKey());
                int seen = before == null ? 0 : before.events().size();
                List<TaskEvent> events = e.getValue().events();
                for (int k = seen; k < events.size(); k++) {
                    out.add(new TimedEvent(e.getKey(), events.get(k), i));
                }
            }
            previous = now;
        }
        return List.copyOf(out);
    }

    /** The final (terminal) state, in Nomad's API shape. */
    public AllocationState state() {
        return state;
    }

    /** Every state the engine published, oldest first; the last is {@link #state()}. */
    public List<AllocationState> history() {
        return history;
    }

    /** Every event of every task in the order the engine recorded them (see {@link TimedEvent#order()}). */
    public List<TimedEvent> timeline() {
        return timeline;
    }

    /** The task's final state; throws {@link AssertionError} naming the tasks when there is no such task. */
    public TaskState task(String name) {
        TaskState s = state.taskStates().get(name);
        if (s == null) {
            throw new AssertionError("allocation " + state.name() + " has no task \"" + name + "\"; its tasks: "
                    + state.taskStates().keySet());
        }
        return s;
    }

    /** The virtual time elapsed between the job's submission and {@code event}. */
    public Duration sinceSubmit(TaskEvent event) {
        Instant at = Instant.ofEpochSecond(0, event.time());
        return Duration.between(submittedAt, at);
    }

    /** The order of the first published state in which the task was {@code dead}, if it died. */
    Optional<Integer> diedAt(String task) {
        for (int i = 0; i < history.size(); i++) {
            TaskState s = history.get(i).taskStates().get(task);
            if (s != null && s.state() == TaskLifeState.DEAD) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return state.name() + " (" + state.clientStatus().wireName() + ")";
    }
}
