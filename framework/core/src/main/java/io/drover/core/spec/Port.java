package io.drover.core.spec;

/**
 * A {@code port "label"} of a group's network.
 *
 * @param staticPort the host port the job asks for; 0 for a dynamic port (allocated from the client's range)
 * @param to the port the task listens on inside; Drover's only mode is host, where it is informational (-1 or 0
 *     means the same as the host port, as in Nomad)
 */
public record Port(String label, int staticPort, int to) {}
