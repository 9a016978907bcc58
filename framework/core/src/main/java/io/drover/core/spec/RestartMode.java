package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** {@code restart.mode}. */
public enum RestartMode {
    FAIL("fail"),
    DELAY("delay");

    private final String wireName;

    RestartMode(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<RestartMode> fromWire(String name) {
        return Arrays.stream(values()).filter(m -> m.wireName.equals(name)).findFirst();
    }
}
