package io.drover.testkit;

import io.drover.core.event.TaskEvent;

/**
 * One event of one task, as the engine recorded it.
 *
 * @param task the task's name
 * @param event the event (Nomad's shape; {@code time()} in unix nanoseconds of the virtual clock)
 * @param order the index of the published snapshot that first showed the event: events with a smaller order
 *     happened before, whatever their times (several events share one virtual instant); events of one order
 *     were recorded by one engine action
 */
public record TimedEvent(String task, TaskEvent event, int order) {}
