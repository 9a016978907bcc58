package io.drover.plugins.exec;

import io.drover.driver.api.PluginConfigException;
import io.drover.process.EnabledFlag;
import java.util.Map;

/**
 * The operator's {@code plugin "exec" { config { enabled = false } }} block. exec is on unless disabled, as in
 * Nomad: it isolates its tasks (chroot, user nobody), and it is healthy only where it can (as root).
 */
record ExecPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "the exec driver is disabled by the agent config (plugin \"exec\" { config { enabled = false } })";

    /**
     * @throws PluginConfigException for an unknown key or a non-boolean {@code enabled} ({@link EnabledFlag}): a
     *     bad agent config, the agent does not start
     */
    static ExecPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        return new ExecPluginConfig(EnabledFlag.parse(config, true));
    }
}
