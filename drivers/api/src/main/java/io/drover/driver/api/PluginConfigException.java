package io.drover.driver.api;

/**
 * Thrown by {@link TaskDriver#init} when the operator's {@code plugin "<name>" { config { ... } }} block is wrong:
 * an unknown key or a bad value. Unlike any other failure of {@code init} (which only skips the driver), the host
 * treats it as a bad agent config: the agent does not start, and the user gets one line naming the config file,
 * the key ({@code plugin "raw_exec" > config > enabled}) and {@link #problem()}.
 */
public class PluginConfigException extends DriverException {
    private final String key;
    private final String problem;

    /**
     * @param key the offending key of the config block, dotted for nested values ({@code "limits.cpu"}); empty
     *     when the problem is the block as a whole (e.g. a required key is missing)
     * @param message what is wrong, for the user ({@code "must be true or false, got \"yes\""})
     */
    public PluginConfigException(String key, String message) {
        super(key == null || key.isEmpty() ? message : key + ": " + message, false);
        this.key = key == null ? "" : key;
        this.problem = message;
    }

    /** The key and the problem, apart. */
    public ConfigProblem problem() {
        return new ConfigProblem(key, problem);
    }
}
