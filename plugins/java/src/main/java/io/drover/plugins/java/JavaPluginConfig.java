package io.drover.plugins.java;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import io.drover.driver.api.schema.ConfigView;
import io.drover.process.EnabledFlag;
import io.drover.process.IsolationModes;
import java.util.Map;

/**
 * The operator's {@code plugin "java" { config { ... } }} block. The java driver is on unless disabled, as in
 * Nomad: it runs only the JVM code a job names, with the agent's JDK. Its tasks run as {@code default_user}
 * (default {@code nobody}, Nomad's default task user) unless a task's {@code config { user = "..." } } says
 * otherwise, and never as root unless {@code allow_root = true} (Nomad's client refuses root for java through
 * {@code user.denylist}). Nomad's {@code default_pid_mode} and {@code default_ipc_mode} ({@code "private"} unless
 * set) are the namespaces of a task whose config sets no {@code pid_mode} / {@code ipc_mode}; they apply only when
 * the agent is root (see {@link JavaDriver}).
 *
 * @param defaultUser the user a task runs as when its config names none
 * @param allowRoot whether a task (or {@code default_user}) may be root
 * @param modes the default PID and IPC modes
 */
record JavaPluginConfig(boolean enabled, String defaultUser, boolean allowRoot, IsolationModes modes) {

    JavaPluginConfig(boolean enabled, String defaultUser, boolean allowRoot) {
        this(enabled, defaultUser, allowRoot, IsolationModes.DEFAULTS);
    }

    static final String DISABLED_MESSAGE =
            "the java driver is disabled by the agent config (plugin \"java\" { config { enabled = false } })";
    static final String DEFAULT_USER = "nobody";
    static final String ROOT_HINT = "running java tasks as root needs plugin \"java\" { config { allow_root = true } }";
    /** The block's schema; keys in name order, as the unknown-key message lists them. */
    static final ConfigSchema SCHEMA = ConfigSchema.of(
            Attribute.bool("allow_root").withDefault(false).describe("whether a task may run as root"),
            IsolationModes.pluginAttribute(IsolationModes.DEFAULT_IPC_MODE),
            IsolationModes.pluginAttribute(IsolationModes.DEFAULT_PID_MODE),
            Attribute.string("default_user").withDefault(DEFAULT_USER).describe("the user a task runs as when its"
                    + " config names none"),
            EnabledFlag.attribute(true));

    static JavaPluginConfig defaults() {
        return new JavaPluginConfig(true, DEFAULT_USER, false);
    }

    /**
     * Checks the keys and their types only; whether {@code default_user} exists and may be used is
     * {@link TaskUsers}'s, at init (it depends on the user the agent runs as).
     *
     * @throws PluginConfigException for an unknown key (the first, by name) or a bad value: a bad agent config, the
     *     agent does not start
     */
    static JavaPluginConfig parse(Map<String, Object> config) throws PluginConfigException {
        ConfigValidation checked = SCHEMA.validate(config);
        if (!checked.valid()) {
            ConfigProblem first = checked.problems().get(0);
            throw new PluginConfigException(first.key(), first.message());
        }
        ConfigView v = checked.view();
        String user = v.string("default_user");
        if (user.isBlank()) {
            throw new PluginConfigException("default_user", "must be a user name, found " + shown(user));
        }
        return new JavaPluginConfig(v.bool("enabled"), user, v.bool("allow_root"), new IsolationModes(
                v.string(IsolationModes.DEFAULT_PID_MODE), v.string(IsolationModes.DEFAULT_IPC_MODE)));
    }

    private static String shown(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
