package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** A parameterized job's {@code payload}: whether a dispatch may, must or must not carry a payload. */
public enum PayloadRule {
    OPTIONAL("optional"), REQUIRED("required"), FORBIDDEN("forbidden");

    private final String wireName;

    PayloadRule(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<PayloadRule> fromWire(String name) {
        return Arrays.stream(values()).filter(r -> r.wireName.equals(name)).findFirst();
    }
}
