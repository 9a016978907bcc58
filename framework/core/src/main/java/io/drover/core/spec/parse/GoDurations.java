package io.drover.core.spec.parse;

import java.time.Duration;

/**
 * Parses durations in Go's {@code time.ParseDuration} syntax: an optional sign, then one or more decimal
 * numbers each with a unit ({@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code m}, {@code h}),
 * e.g. {@code 250ms}, {@code 1.5s}, {@code 1m30s}, {@code 24h}; {@code 0} alone needs no unit. The range is
 * Go's: what fits a signed 64-bit count of nanoseconds. Pure. The parser lives in the driver SDK
 * ({@link io.drover.driver.api.schema.GoDurations}) so that job files and driver config schemas read durations
 * alike.
 */
public final class GoDurations {
    private GoDurations() {}

    /**
     * @return the duration, negative when written with {@code -}
     * @throws IllegalArgumentException with a user-facing message when the text is not a Go duration
     */
    public static Duration parse(String text) {
        return io.drover.driver.api.schema.GoDurations.parse(text);
    }
}
