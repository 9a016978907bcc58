package io.drover.core;

/** Drover's version, the one plugins' {@code Plugin-Requires} is checked against. Keep equal to the pom's. */
public final class DroverVersion {
    public static final String VERSION = "0.1.0";

    private DroverVersion() {}
}
