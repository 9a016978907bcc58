package io.drover.plugins.exec;

import io.drover.driver.api.PluginConfigException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "exec" { config { enabled = false } }} block. exec is on unless disabled, as in
 * Nomad: it isolates its tasks (chroot, user nobody), and it is healthy only where it can (as root).
 */
record ExecPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "the exec driver is disabled by the agent config (plugin \"exec\" { config { enabled = false } })";

    /**
     * @throws PluginConfigException for an unknown key (the first, by name) or a non-boolean {@code enabled}: a
     *     bad agent config, the agent does not start
     */
    static ExecPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new PluginConfigException(unknown.first(), "unknown key (allowed: enabled)");
        }
        Object enabled = config.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            throw new PluginConfigException("enabled", "must be true or false, found " + describe(enabled));
        }
        return new ExecPluginConfig(!Boolean.FALSE.equals(enabled));
    }

    private static String describe(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
