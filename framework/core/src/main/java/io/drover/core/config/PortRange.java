package io.drover.core.config;

/**
 * The host ports dynamic {@code port} blocks are taken from: client {@code min_dynamic_port} and
 * {@code max_dynamic_port}, both inclusive (Nomad's defaults, 20000 to 32000).
 */
public record PortRange(int min, int max) {
    public static final PortRange DEFAULT = new PortRange(20000, 32000);

    public PortRange {
        if (min < 1 || max > 65535 || min > max) {
            throw new IllegalArgumentException("bad port range " + min + "-" + max);
        }
    }
}
