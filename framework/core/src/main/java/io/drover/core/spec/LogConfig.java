package io.drover.core.spec;

/** A task's {@code logs} block: Nomad's defaults are 10 files of 10 MiB. */
public record LogConfig(int maxFiles, int maxFileSizeMb) {
    public static final LogConfig DEFAULT = new LogConfig(10, 10);
}
