package io.drover.core.spec;

import java.time.Duration;

/**
 * A {@code restart} block: at most {@code attempts} restarts within {@code interval}, each after
 * {@code delay}; past that, {@code mode} fail stops the task, delay waits for the interval to end.
 */
public record RestartPolicy(int attempts, Duration interval, Duration delay, RestartMode mode) {
    /** Nomad's default for batch jobs. */
    public static final RestartPolicy BATCH_DEFAULT =
            new RestartPolicy(3, Duration.ofHours(24), Duration.ofSeconds(15), RestartMode.FAIL);
    /** Nomad's default for service jobs. */
    public static final RestartPolicy SERVICE_DEFAULT =
            new RestartPolicy(2, Duration.ofMinutes(30), Duration.ofSeconds(15), RestartMode.FAIL);
}
