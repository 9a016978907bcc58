package io.drover.driver.api;

/**
 * Optional abilities of a driver, read by the host once.
 *
 * @param sendSignals whether {@link TaskDriver#signal} delivers signals other than SIGKILL
 * @param recover whether {@link TaskDriver#recover} can re-attach to tasks of an earlier agent
 */
public record Capabilities(boolean sendSignals, boolean recover) {}
