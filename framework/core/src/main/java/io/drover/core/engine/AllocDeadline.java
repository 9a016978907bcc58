package io.drover.core.engine;

import io.drover.core.spec.TaskGroup;
import io.drover.driver.api.Timers;
import java.time.Duration;
import java.time.Instant;

/**
 * A group's {@code max_run_duration} (Nomad's {@code TaskGroup.MaxRunDuration}, batch and sysbatch jobs): a
 * deadline for the whole allocation, anchored, as Nomad anchors it, to the allocation's create time, so that task
 * restarts do not move it and an agent restart neither resets nor loses it (a resumed allocation whose deadline
 * passed while no agent ran is stopped at once). The timer fires on the timer thread and hops onto the
 * allocation's serial executor through {@code onDeadline}; {@link #arm} and {@link #cancel} are called on the
 * serial executor. Not idempotent: arm once per allocation runner.
 */
final class AllocDeadline {
    private Timers.Cancellable timer;

    /** The group's {@code max_run_duration}, null when it has none. */
    static Duration of(TaskGroup group) {
        return group.cluster().get("MaxRunDuration") instanceof Number n ? Duration.ofNanos(n.longValue()) : null;
    }

    /**
     * Arms the deadline {@code createTimeNanos + limit} of {@code group}, when it has a {@code max_run_duration}.
     *
     * @param onDeadline called once with the limit and how long the allocation had run, on the timer thread
     */
    void arm(TaskGroup group, long createTimeNanos, Timers timers, java.util.function.BiConsumer<Duration, Duration> onDeadline) {
        Duration limit = of(group);
        if (limit == null) {
            return;
        }
        Instant created = Instant.ofEpochSecond(0, createTimeNanos);
        Duration left = Duration.between(timers.now(), created.plus(limit));
        timer = timers.schedule(left.isNegative() ? Duration.ZERO : left,
                () -> onDeadline.accept(limit, Duration.between(created, timers.now())));
    }

    void cancel() {
        if (timer != null) {
            timer.cancel();
        }
    }
}
