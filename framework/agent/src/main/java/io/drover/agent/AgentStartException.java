package io.drover.agent;

import io.drover.core.config.ConfigException;

/**
 * The agent cannot start; the message is the one line to show the user (no stack trace). When the cause is a bad
 * config found only at start (a driver refused its {@code plugin} block), {@link #configError()} carries it, file,
 * line and key, so the command exits as for any bad config.
 */
public final class AgentStartException extends Exception {
    private final transient ConfigException configError;

    public AgentStartException(String message, Throwable cause) {
        super(message, cause, false, false);
        this.configError = null;
    }

    /** A bad config: the message is the config error's own one line. */
    public AgentStartException(ConfigException configError) {
        super(configError.getMessage(), configError, false, false);
        this.configError = configError;
    }

    /** The config error that stopped the start, or null when the config was not the problem. */
    public ConfigException configError() {
        return configError;
    }
}
