package io.drover.testkit;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Assertions on one task's events (oldest first), by {@link TaskEventType}. */
public final class EventsAssert {
    private final TaskAssert task;
    private final String name;
    private final List<TaskEventType> types;
    private final List<TaskEvent> events;

    EventsAssert(TaskAssert task, String name, List<TaskEvent> events) {
        this.task = task;
        this.name = name;
        this.events = events;
        this.types = events.stream().map(TaskEvent::type).toList();
    }

    static String describe(List<TaskEvent> events) {
        return events.stream().map(e -> e.type().wireName()).collect(Collectors.joining(", ", "[", "]"));
    }

    private AssertionError fail(String expectation, TaskEventType... expected) {
        return new AssertionError("task " + name + ": expected its events to " + expectation + " "
                + Arrays.stream(expected).map(TaskEventType::wireName).collect(Collectors.joining(", ", "[", "]"))
                + " but they are " + describe(events));
    }

    /** The types appear consecutively, in this order, somewhere in the events (AssertJ's containsSequence). */
    public EventsAssert containsSequence(TaskEventType... sequence) {
        List<TaskEventType> want = List.of(sequence);
        if (java.util.Collections.indexOfSubList(types, want) < 0) {
            throw fail("contain the sequence", sequence);
        }
        return this;
    }

    /** The types appear in this order, other events possibly between them (AssertJ's containsSubsequence). */
    public EventsAssert containsSubsequence(TaskEventType... subsequence) {
        int i = 0;
        for (TaskEventType t : types) {
            if (i < subsequence.length && t == subsequence[i]) {
                i++;
            }
        }
        if (i < subsequence.length) {
            throw fail("contain, in order,", subsequence);
        }
        return this;
    }

    /** The events are exactly these types, in this order. */
    public EventsAssert containsExactly(TaskEventType... all) {
        if (!types.equals(List.of(all))) {
            throw fail("be exactly", all);
        }
        return this;
    }

    /** Each type appears at least once. */
    public EventsAssert contains(TaskEventType... some) {
        for (TaskEventType t : some) {
            if (!types.contains(t)) {
                throw fail("contain", some);
            }
        }
        return this;
    }

    /** None of the types appears. */
    public EventsAssert doesNotContain(TaskEventType... none) {
        for (TaskEventType t : none) {
            if (types.contains(t)) {
                throw fail("not contain", none);
            }
        }
        return this;
    }

    /** Back to the task's assertions. */
    public TaskAssert and() {
        return task;
    }
}
