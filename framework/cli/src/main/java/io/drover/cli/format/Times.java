package io.drover.cli.format;

import io.drover.core.time.Nanos;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * How the CLI prints instants: RFC 3339 with milliseconds. Nomad prints whole seconds; Drover keeps the
 * milliseconds so that the order of a lifecycle's events (often milliseconds apart) is visible.
 */
public final class Times {
    /** RFC 3339 with milliseconds; the offset is {@code Z} for UTC. */
    private static final DateTimeFormatter RFC3339_MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");
    public static final String NOT_AVAILABLE = "N/A";

    private Times() {}

    /** Unix nanoseconds in the given zone (Nomad prints event and allocation times in local time). */
    public static String local(long unixNanos, ZoneId zone) {
        return RFC3339_MILLIS.format(Nanos.toInstant(unixNanos).atZone(zone));
    }

    /** An instant in UTC (Nomad prints a task's Started At/Finished At in UTC); N/A when null. */
    public static String utc(Instant instant) {
        return instant == null ? NOT_AVAILABLE : RFC3339_MILLIS.format(instant.atZone(ZoneOffset.UTC));
    }
}
