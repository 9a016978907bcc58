package io.drover.plugins.java;

import io.drover.driver.api.DriverException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "java" { config { enabled = false } }} block. The java driver is on unless
 * disabled, as in Nomad: it runs only the JVM code a job names, with the agent's JDK.
 */
record JavaPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "the java driver is disabled by the agent config (plugin \"java\" { config { enabled = false } })";

    /** @throws DriverException (unrecoverable) for unknown keys or a non-boolean {@code enabled} */
    static JavaPluginConfig parse(Map<String, Object> config) throws DriverException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new DriverException("java plugin config: unknown key(s) " + String.join(", ", unknown)
                    + "; it takes enabled", false);
        }
        Object enabled = config.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            throw new DriverException("java plugin config: enabled must be true or false, got " + enabled, false);
        }
        return new JavaPluginConfig(!Boolean.FALSE.equals(enabled));
    }
}
