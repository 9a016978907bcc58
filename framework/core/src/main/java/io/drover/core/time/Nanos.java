package io.drover.core.time;

import java.time.Instant;

/** Unix nanoseconds, the unit of event {@code Time} and allocation {@code CreateTime}. */
public final class Nanos {
    private Nanos() {}

    public static long of(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    public static Instant toInstant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
