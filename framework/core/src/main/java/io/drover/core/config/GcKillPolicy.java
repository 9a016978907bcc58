package io.drover.core.config;

import java.util.Arrays;
import java.util.Optional;

/** {@code client.gc_kill_policy}: what destroying an allocation does with its poststop tasks (contract §3). */
public enum GcKillPolicy {
    PRESERVE_STATES("preserve_states"),
    KILL_POSTSTOP("kill_poststop");

    private final String wireName;

    GcKillPolicy(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /**
     * Whether destroying or stopping an allocation kills this task while it runs as a poststop task: the task's
     * {@code lifecycle.gc_kill} when set, else this policy.
     */
    public boolean killsPoststop(io.drover.core.spec.Lifecycle lifecycle) {
        if (lifecycle != null && lifecycle.gcKill() != null) {
            return lifecycle.gcKill();
        }
        return this == KILL_POSTSTOP;
    }

    public static Optional<GcKillPolicy> fromWire(String name) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(name)).findFirst();
    }
}
