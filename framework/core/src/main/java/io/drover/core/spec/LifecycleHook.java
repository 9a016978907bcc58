package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** The {@code lifecycle.hook} values. */
public enum LifecycleHook {
    PRESTART("prestart"),
    POSTSTART("poststart"),
    POSTSTOP("poststop");

    private final String wireName;

    LifecycleHook(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<LifecycleHook> fromWire(String name) {
        return Arrays.stream(values()).filter(h -> h.wireName.equals(name)).findFirst();
    }
}
