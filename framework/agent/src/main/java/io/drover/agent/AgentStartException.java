package io.drover.agent;

/** The agent cannot start; the message is the one line to show the user (no stack trace). */
public final class AgentStartException extends Exception {
    public AgentStartException(String message, Throwable cause) {
        super(message, cause, false, false);
    }
}
