package io.drover.plugins.rawexec;

import io.drover.driver.api.PluginConfigException;
import io.drover.process.EnabledFlag;
import java.util.Map;

/**
 * The operator's {@code plugin "raw_exec" { config { enabled = true } }} block. raw_exec runs commands as the
 * agent's user without isolation, so it is off unless enabled, as in Nomad.
 */
record RawExecPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "raw_exec is disabled; enable it with plugin \"raw_exec\" { config { enabled = true } }";

    /**
     * @throws PluginConfigException for an unknown key or a non-boolean {@code enabled} ({@link EnabledFlag}): a
     *     bad agent config, the agent does not start
     */
    static RawExecPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        return new RawExecPluginConfig(EnabledFlag.parse(config, false));
    }
}
