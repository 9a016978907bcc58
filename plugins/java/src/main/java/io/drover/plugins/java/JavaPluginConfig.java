package io.drover.plugins.java;

import io.drover.driver.api.PluginConfigException;
import io.drover.process.EnabledFlag;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "java" { config { ... } }} block. The java driver is on unless disabled, as in
 * Nomad: it runs only the JVM code a job names, with the agent's JDK. Its tasks run as {@code default_user}
 * (default {@code nobody}, Nomad's default task user) unless a task's {@code config { user = "..." } } says
 * otherwise, and never as root unless {@code allow_root = true} (Nomad's client refuses root for java through
 * {@code user.denylist}).
 *
 * @param defaultUser the user a task runs as when its config names none
 * @param allowRoot whether a task (or {@code default_user}) may be root
 */
record JavaPluginConfig(boolean enabled, String defaultUser, boolean allowRoot) {
    static final String DISABLED_MESSAGE =
            "the java driver is disabled by the agent config (plugin \"java\" { config { enabled = false } })";
    static final String DEFAULT_USER = "nobody";
    static final String ROOT_HINT = "running java tasks as root needs plugin \"java\" { config { allow_root = true } }";
    private static final Set<String> KEYS = Set.of("enabled", "default_user", "allow_root");

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
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.removeAll(KEYS);
        if (!unknown.isEmpty()) {
            throw new PluginConfigException(unknown.first(), "unknown key (allowed: allow_root, default_user,"
                    + " enabled)");
        }
        Object flag = config.get("enabled");
        boolean enabled = EnabledFlag.parse(flag == null ? Map.of() : Map.of("enabled", flag), true);
        Object user = config.getOrDefault("default_user", DEFAULT_USER);
        if (!(user instanceof String s) || s.isBlank()) {
            throw new PluginConfigException("default_user", "must be a user name, found " + shown(user));
        }
        Object root = config.getOrDefault("allow_root", false);
        if (!(root instanceof Boolean b)) {
            throw new PluginConfigException("allow_root", "must be true or false, found " + shown(root));
        }
        return new JavaPluginConfig(enabled, s, b);
    }

    private static String shown(Object value) {
        return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    }
}
