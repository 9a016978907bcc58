package io.drover.process;

import io.drover.driver.api.schema.Attribute;
import java.util.Map;

/**
 * Nomad's {@code pid_mode} and {@code ipc_mode} of the exec and java drivers: a task config key each
 * ({@code "private"} or {@code "host"}; absent: the plugin's default) and a plugin config key each,
 * {@code default_pid_mode} and {@code default_ipc_mode} (default {@code "private"}, as in Nomad). Values outside
 * the two are refused by the schemas ({@link Attribute#allowed}), so each is one line naming its key. Immutable;
 * pure; any thread.
 *
 * @param pid the plugin's default PID mode
 * @param ipc the plugin's default IPC mode
 */
public record IsolationModes(String pid, String ipc) {
    public static final String PRIVATE = "private";
    public static final String HOST = "host";
    public static final String PID_MODE = "pid_mode";
    public static final String IPC_MODE = "ipc_mode";
    public static final String DEFAULT_PID_MODE = "default_pid_mode";
    public static final String DEFAULT_IPC_MODE = "default_ipc_mode";
    /** Nomad's defaults. */
    public static final IsolationModes DEFAULTS = new IsolationModes(PRIVATE, PRIVATE);

    /** A task config key, {@link #PID_MODE} or {@link #IPC_MODE}. */
    public static Attribute taskAttribute(String key) {
        String what = key.equals(PID_MODE) ? "PID" : "IPC";
        return Attribute.string(key).allowed(PRIVATE, HOST).describe("\"private\": a " + what
                + " namespace of the task's own; \"host\": the host's; default the plugin's default_" + key);
    }

    /** A plugin config key, {@link #DEFAULT_PID_MODE} or {@link #DEFAULT_IPC_MODE}. */
    public static Attribute pluginAttribute(String key) {
        return Attribute.string(key).allowed(PRIVATE, HOST).withDefault(PRIVATE).describe("the "
                + key.substring("default_".length()) + " of a task that sets none (\"private\" or \"host\")");
    }

    /**
     * The namespaces of a task whose (valid) config is {@code taskConfig}: its {@code pid_mode} / {@code ipc_mode},
     * else these defaults.
     */
    public Namespaces namespaces(Map<String, Object> taskConfig) {
        return new Namespaces(PRIVATE.equals(mode(taskConfig, PID_MODE, pid)),
                PRIVATE.equals(mode(taskConfig, IPC_MODE, ipc)));
    }

    private static String mode(Map<String, Object> config, String key, String byDefault) {
        return config.get(key) instanceof String s ? s : byDefault;
    }
}
