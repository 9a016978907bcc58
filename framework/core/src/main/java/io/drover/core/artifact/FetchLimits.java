package io.drover.core.artifact;

import java.time.Duration;

/**
 * Bounds of one artifact: bytes downloaded or copied, bytes and entries unpacked (an archive bomb stops at the
 * limit, not at the disk's end), and the wall-clock time of the whole fetch (a server that trickles or hangs).
 */
public record FetchLimits(long maxBytes, int maxEntries, Duration timeout) {
    /** 1 GiB, 100,000 archive entries, 30 minutes (Nomad's default http_read_timeout). */
    public static final FetchLimits DEFAULT = new FetchLimits(1L << 30, 100_000, Duration.ofMinutes(30));
}
