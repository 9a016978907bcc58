package io.drover.nomad.wire;

/**
 * How Drover's drivers are named on the Nomad side: {@code drover-<driver>} (PluginInfo name, plugin block
 * label, job's {@code driver}, and the executable's file name in {@code plugin_dir}), so they never collide with
 * Nomad's built-in raw_exec, exec and java. Pure.
 */
public final class NomadNames {
    public static final String PREFIX = "drover-";

    private NomadNames() {}

    public static String pluginName(String driver) {
        return PREFIX + driver;
    }
}
