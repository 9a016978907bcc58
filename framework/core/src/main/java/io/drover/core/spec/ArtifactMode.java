package io.drover.core.spec;

import java.util.Arrays;
import java.util.Optional;

/** An artifact's {@code mode}, as go-getter's client modes: any (file or directory), file, dir. */
public enum ArtifactMode {
    ANY,
    FILE,
    DIR;

    public String wireName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Optional<ArtifactMode> fromWire(String s) {
        return Arrays.stream(values()).filter(m -> m.wireName().equals(s)).findFirst();
    }
}
