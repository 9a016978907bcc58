package io.drover.core.spec;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A group's {@code reschedule} policy as Nomad applies it (nomad/structs: {@code ReschedulePolicy},
 * {@code Allocation.NextDelay}, {@code RescheduleTracker.RescheduleEligible}, {@code nextRescheduleTime}): the
 * job type's default, overridden key by key by the job's {@code reschedule} block, then by the group's. Pure and
 * immutable; any thread.
 *
 * @param attempts how many replacements within {@code interval} (ignored when {@code unlimited})
 * @param delayFunction {@code constant}, {@code exponential} or {@code fibonacci}
 * @param maxDelay the ceiling of a growing delay (zero: none)
 */
public record ReschedulePolicy(int attempts, Duration interval, Duration delay, String delayFunction,
        Duration maxDelay, boolean unlimited) {

    /** Nomad's {@code DefaultServiceJobReschedulePolicy}. */
    public static final ReschedulePolicy SERVICE_DEFAULT = new ReschedulePolicy(0, Duration.ZERO,
            Duration.ofSeconds(30), "exponential", Duration.ofHours(1), true);
    /** Nomad's {@code DefaultBatchJobReschedulePolicy}. */
    public static final ReschedulePolicy BATCH_DEFAULT = new ReschedulePolicy(1, Duration.ofHours(24),
            Duration.ofSeconds(5), "constant", Duration.ZERO, false);
    /** What {@code system} and {@code sysbatch} jobs have: they never reschedule. */
    public static final ReschedulePolicy NEVER = new ReschedulePolicy(0, Duration.ZERO, Duration.ZERO, "constant",
            Duration.ZERO, false);

    /** One earlier replacement: when it was placed (unix nanos) and the delay it waited. */
    public record Attempt(long time, Duration delay) {}

    /** The policy of {@code group} in {@code job}. */
    public static ReschedulePolicy of(Job job, TaskGroup group) {
        ReschedulePolicy p = switch (job.type()) {
            case SERVICE -> SERVICE_DEFAULT;
            case BATCH -> BATCH_DEFAULT;
            default -> NEVER;
        };
        if (p == NEVER) {
            return p;
        }
        p = p.with(job.cluster().get("Reschedule"));
        return p.with(group.cluster().get("ReschedulePolicy"));
    }

    /** This policy with the keys {@code block} sets (Nomad's API names, durations in nanoseconds). */
    private ReschedulePolicy with(Object block) {
        if (!(block instanceof Map<?, ?> m) || m.isEmpty()) {
            return this;
        }
        return new ReschedulePolicy(
                m.get("Attempts") instanceof Number n ? n.intValue() : attempts,
                m.get("Interval") instanceof Number n ? Duration.ofNanos(n.longValue()) : interval,
                m.get("Delay") instanceof Number n ? Duration.ofNanos(n.longValue()) : delay,
                m.get("DelayFunction") instanceof String s && !s.isEmpty() ? s : delayFunction,
                m.get("MaxDelay") instanceof Number n ? Duration.ofNanos(n.longValue()) : maxDelay,
                m.get("Unlimited") instanceof Boolean b ? b : unlimited);
    }

    /** Whether it reschedules at all ({@code attempts = 0} with {@code unlimited = false}: never). */
    public boolean enabled() {
        return unlimited || attempts > 0;
    }

    /**
     * The delay before the next replacement of an allocation that failed at {@code failTime} (unix nanos), whose
     * lineage already had {@code earlier} replacements (oldest first): Nomad's {@code NextDelay}.
     */
    public Duration nextDelay(List<Attempt> earlier, long failTime) {
        if (earlier.isEmpty()) {
            return delay;
        }
        Attempt last = earlier.get(earlier.size() - 1);
        Duration d;
        switch (delayFunction) {
            case "exponential" -> d = last.delay().multipliedBy(2);
            case "fibonacci" -> {
                if (earlier.size() < 2) {
                    d = delay;
                } else {
                    Duration n1 = last.delay();
                    Duration n2 = earlier.get(earlier.size() - 2).delay();
                    // a series that hit the ceiling and was reset starts again
                    d = n2.equals(maxDelay) && n1.equals(delay) ? n1 : n1.plus(n2);
                }
            }
            default -> {
                return delay;
            }
        }
        if (!maxDelay.isZero() && !maxDelay.isNegative() && d.compareTo(maxDelay) > 0) {
            d = maxDelay;
            // a failure long after the last replacement starts the series again
            if (failTime - last.time() > d.toNanos()) {
                d = delay;
            }
        }
        return d;
    }

    /**
     * Whether an allocation that failed at {@code failTime} (unix nanos) after {@code earlier} replacements gets
     * one more: Nomad's {@code nextRescheduleTime} eligibility (attempts counted within {@code interval} before
     * the failure, and the next delay shorter than the interval).
     */
    public boolean eligible(List<Attempt> earlier, long failTime) {
        if (!enabled()) {
            return false;
        }
        if (unlimited) {
            return true;
        }
        if (earlier.isEmpty()) {
            return true;
        }
        long attempted = earlier.stream().filter(a -> failTime - a.time() < interval.toNanos()).count();
        return attempted < attempts && nextDelay(earlier, failTime).compareTo(interval) < 0;
    }
}
