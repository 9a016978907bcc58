package io.drover.plugins.rawexec;

import io.drover.driver.api.PluginConfigException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "raw_exec" { config { enabled = true } }} block. raw_exec runs commands as the
 * agent's user without isolation, so it is off unless enabled, as in Nomad.
 */
record RawExecPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "raw_exec is disabled; enable it with plugin \"raw_exec\" { config { enabled = true } }";

    /**
     * @throws PluginConfigException for an unknown key (the first, by name) or a non-boolean {@code enabled}: a
     *     bad agent config, the agent does not start
     */
    static RawExecPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new PluginConfigException(unknown.first(), "unknown key (allowed: enabled)");
        }
        Object enabled = config.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            throw new PluginConfigException("enabled", "must be true or false, found " + describe(enabled));
        }
        return new RawExecPluginConfig(Boolean.TRUE.equals(enabled));
    }

    private static String describe(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
