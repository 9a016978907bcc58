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

    public static Optional<GcKillPolicy> fromWire(String name) {
        return Arrays.stream(values()).filter(p -> p.wireName.equals(name)).findFirst();
    }
}
