package io.drover.plugins.exec;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import io.drover.driver.api.schema.ConfigView;
import io.drover.process.EnabledFlag;
import io.drover.process.IsolationModes;
import java.util.Map;

/**
 * The operator's {@code plugin "exec" { config { ... } }} block: {@code enabled} (exec is on unless disabled, as in
 * Nomad: it isolates its tasks, and it is healthy only where it can, as root), and Nomad's {@code default_pid_mode}
 * and {@code default_ipc_mode} ({@code "private"} unless set: the namespaces of a task whose config sets no
 * {@code pid_mode} / {@code ipc_mode}).
 */
record ExecPluginConfig(boolean enabled, IsolationModes modes) {
    static final String DISABLED_MESSAGE =
            "the exec driver is disabled by the agent config (plugin \"exec\" { config { enabled = false } })";
    /** The block's schema; keys in name order. */
    static final ConfigSchema SCHEMA = ConfigSchema.of(
            IsolationModes.pluginAttribute(IsolationModes.DEFAULT_IPC_MODE),
            IsolationModes.pluginAttribute(IsolationModes.DEFAULT_PID_MODE),
            EnabledFlag.attribute(true));

    /**
     * @throws PluginConfigException for an unknown key or a bad value (the first, by name): a bad agent config, the
     *     agent does not start
     */
    static ExecPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        ConfigValidation checked = SCHEMA.validate(config);
        if (!checked.valid()) {
            ConfigProblem first = checked.problems().get(0);
            throw new PluginConfigException(first.key(), first.message());
        }
        ConfigView v = checked.view();
        return new ExecPluginConfig(v.bool("enabled"), new IsolationModes(v.string(IsolationModes.DEFAULT_PID_MODE),
                v.string(IsolationModes.DEFAULT_IPC_MODE)));
    }
}
