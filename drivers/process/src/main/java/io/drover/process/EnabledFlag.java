package io.drover.process;

import io.drover.driver.api.PluginConfigException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The plugin config block of a driver whose only key is {@code enabled} (raw_exec, exec, java):
 * {@code plugin "NAME" { config { enabled = BOOL } }}. Pure; any thread.
 */
public final class EnabledFlag {
    private EnabledFlag() {}

    /**
     * @param byDefault whether the driver is on when the block does not say (Nomad: raw_exec off, exec and java on)
     * @throws PluginConfigException for an unknown key (the first, by name) or a non-boolean {@code enabled}: a
     *     bad agent config, the agent does not start
     */
    public static boolean parse(Map<String, Object> config, boolean byDefault) throws PluginConfigException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new PluginConfigException(unknown.first(), "unknown key (allowed: enabled)");
        }
        Object enabled = config.get("enabled");
        if (enabled == null) {
            return byDefault;
        }
        if (!(enabled instanceof Boolean b)) {
            throw new PluginConfigException("enabled", "must be true or false, found "
                    + (enabled instanceof String s ? "\"" + s + "\"" : String.valueOf(enabled)));
        }
        return b;
    }
}
