package io.drover.core.spec;

import io.drover.core.spec.cron.CronException;
import io.drover.core.spec.cron.CronExpression;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/**
 * A job's {@code periodic} block (Nomad's {@code PeriodicConfig}): the agent launches a child job named
 * {@code <job>/periodic-<unix seconds>} at each time one of {@code specs} gives, in {@code timeZone}; the parent
 * itself runs nothing. The specs were checked when the job was parsed.
 *
 * @param specs the cron expressions ({@code cron}, or each of {@code crons}); the next launch is the earliest
 * @param timeZone an IANA zone id ({@code "UTC"} when the block names none)
 * @param prohibitOverlap skip a launch while a child of the job still runs
 * @param enabled a disabled block keeps the job periodic (it runs nothing) but launches nothing
 */
public record Periodic(List<String> specs, String timeZone, boolean prohibitOverlap, boolean enabled) {
    /** Nomad's suffix before a periodic child's launch time. */
    public static final String CHILD_SUFFIX = "/periodic-";

    public Periodic {
        specs = List.copyOf(specs);
        timeZone = timeZone == null || timeZone.isEmpty() ? "UTC" : timeZone;
    }

    public ZoneId zone() {
        return ZoneId.of(timeZone);
    }

    /** The first launch time strictly after {@code from}; empty when no spec has one left (or when disabled). */
    public Optional<Instant> next(Instant from) {
        if (!enabled) {
            return Optional.empty();
        }
        Optional<Instant> best = Optional.empty();
        for (String spec : specs) {
            try {
                Optional<Instant> t = CronExpression.parse(spec).next(from, zone());
                if (t.isPresent() && (best.isEmpty() || t.get().isBefore(best.get()))) {
                    best = t;
                }
            } catch (CronException e) {
                throw new IllegalStateException("periodic spec was not checked at parse: " + e.getMessage(), e);
            }
        }
        return best;
    }

    /** The id of the child launched at {@code launch} (whole seconds, as Nomad names it). */
    public static String childId(String parentId, Instant launch) {
        return parentId + CHILD_SUFFIX + launch.getEpochSecond();
    }
}
