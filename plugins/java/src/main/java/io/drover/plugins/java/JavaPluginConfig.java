package io.drover.plugins.java;

import io.drover.driver.api.PluginConfigException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "java" { config { enabled = false } }} block. The java driver is on unless
 * disabled, as in Nomad: it runs only the JVM code a job names, with the agent's JDK.
 */
record JavaPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "the java driver is disabled by the agent config (plugin \"java\" { config { enabled = false } })";

    /**
     * @throws PluginConfigException for an unknown key (the first, by name) or a non-boolean {@code enabled}: a
     *     bad agent config, the agent does not start
     */
    static JavaPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new PluginConfigException(unknown.first(), "unknown key (allowed: enabled)");
        }
        Object enabled = config.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            throw new PluginConfigException("enabled", "must be true or false, found " + describe(enabled));
        }
        return new JavaPluginConfig(!Boolean.FALSE.equals(enabled));
    }

    private static String describe(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
