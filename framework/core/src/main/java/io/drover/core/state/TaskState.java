package io.drover.core.state;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.drover.core.event.TaskEvent;
import java.time.Instant;
import java.util.List;

/**
 * A task's state in Nomad's JSON shape ({@code TaskState}). Immutable snapshot: the engine replaces it on
 * every change. {@code events} holds every event ever recorded for the task, oldest first, with no cap.
 *
 * @param startedAt when the task last started; null before its first start
 * @param finishedAt when the task became dead; null until then
 * @param lastRestart when the task last restarted; null when it never did
 */
public record TaskState(
        @JsonProperty("State") TaskLifeState state,
        @JsonProperty("Failed") boolean failed,
        @JsonProperty("Restarts") int restarts,
        @JsonProperty("LastRestart") Instant lastRestart,
        @JsonProperty("StartedAt") Instant startedAt,
        @JsonProperty("FinishedAt") Instant finishedAt,
        @JsonProperty("Events") List<TaskEvent> events) {

    public TaskState {
        if (state == null) {
            throw new IllegalArgumentException("a task state is never blank");
        }
        events = List.copyOf(events);
    }

    public static TaskState initial() {
        return new TaskState(TaskLifeState.PENDING, false, 0, null, null, null, List.of());
    }

    public TaskState withEvent(TaskEvent event) {
        var all = new java.util.ArrayList<TaskEvent>(events.size() + 1);
        all.addAll(events);
        all.add(event);
        return new TaskState(state, failed, restarts, lastRestart, startedAt, finishedAt, all);
    }
}
