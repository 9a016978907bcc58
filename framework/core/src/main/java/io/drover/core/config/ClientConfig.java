package io.drover.core.config;

import java.time.Duration;

/** The agent config's {@code client} block, with Nomad's (and Drover's) defaults. */
public record ClientConfig(
        Duration gcInterval,
        int gcMaxAllocs,
        int gcDiskUsageThreshold,
        int gcInodeUsageThreshold,
        int gcParallelDestroys,
        GcKillPolicy gcKillPolicy,
        Duration maxKillTimeout,
        Duration recordRetention) {

    public static ClientConfig defaults() {
        return new ClientConfig(Duration.ofMinutes(1), 50, 80, 70, 2, GcKillPolicy.PRESERVE_STATES,
                Duration.ofSeconds(30), Duration.ofHours(24));
    }
}
