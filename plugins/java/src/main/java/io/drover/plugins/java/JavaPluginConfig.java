package io.drover.plugins.java;

import io.drover.driver.api.PluginConfigException;
import io.drover.process.EnabledFlag;
import java.util.Map;

/**
 * The operator's {@code plugin "java" { config { enabled = false } }} block. The java driver is on unless
 * disabled, as in Nomad: it runs only the JVM code a job names, with the agent's JDK.
 */
record JavaPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "the java driver is disabled by the agent config (plugin \"java\" { config { enabled = false } })";

    /**
     * @throws PluginConfigException for an unknown key or a non-boolean {@code enabled} ({@link EnabledFlag}): a
     *     bad agent config, the agent does not start
     */
    static JavaPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        return new JavaPluginConfig(EnabledFlag.parse(config, true));
    }
}
