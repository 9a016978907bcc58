package io.drover.core.config;

import java.util.List;

/**
 * The agent config's {@code http} block: how the HTTP API tells its own requests from a web page's.
 * Immutable.
 *
 * @param allowedHosts {@code http { allowed_hosts = [...] }}: names (a port is ignored) that a request's
 *     {@code Host} may carry besides the agent's own ({@code bind_addr}, loopback names for a loopback or
 *     wildcard bind, every local address for a wildcard bind, the machine's host name); for an agent reached
 *     through a DNS name or a reverse proxy. Empty by default.
 */
public record HttpConfig(List<String> allowedHosts) {
    public HttpConfig {
        allowedHosts = List.copyOf(allowedHosts);
    }

    public static HttpConfig defaults() {
        return new HttpConfig(List.of());
    }
}
