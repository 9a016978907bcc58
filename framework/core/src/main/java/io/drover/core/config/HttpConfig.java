package io.drover.core.config;

import java.time.Duration;
import java.util.List;

/**
 * The agent config's {@code http} block: which requests the HTTP API takes as its own, and how long and how many
 * connections it gives clients that have not sent a request yet. Immutable.
 *
 * @param allowedHosts {@code allowed_hosts}: names (a port is ignored) that a request's {@code Host} may carry
 *     besides the agent's own ({@code bind_addr}, loopback names for a loopback or wildcard bind, every local
 *     address for a wildcard bind, the machine's host name); for an agent reached through a DNS name or a
 *     reverse proxy. Empty by default.
 * @param maxConns {@code max_conns}: open connections at once (beyond: closed at accept); each may read its
 *     request on its own thread, so slow senders cannot hold the threads that serve others
 * @param headerTimeout {@code header_timeout}: time a connection has to send a whole request (headers and
 *     body) once it started one; past it the connection is closed
 * @param idleTimeout {@code idle_timeout}: time a connection may stay open without a request in progress,
 *     before its first request as between keep-alive requests
 * @param maxConnsPerClient {@code max_conns_per_client}: open connections at once from one remote IP address
 *     (beyond: closed at once, before a byte is read); 0 for no per-client limit (then only {@code max_conns}
 *     bounds them). Nomad's {@code limits { http_max_conns_per_client }}, with its default of 100
 */
public record HttpConfig(List<String> allowedHosts, int maxConns, Duration headerTimeout, Duration idleTimeout,
        int maxConnsPerClient) {
    public static final int DEFAULT_MAX_CONNS = 1024;
    public static final int DEFAULT_MAX_CONNS_PER_CLIENT = 100;
    public static final Duration DEFAULT_HEADER_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    public HttpConfig {
        allowedHosts = List.copyOf(allowedHosts);
        if (maxConns < 1 || headerTimeout.toSeconds() < 1 || idleTimeout.toSeconds() < 1) {
            throw new IllegalArgumentException("http: max_conns must be at least 1, timeouts at least 1s");
        }
        if (maxConnsPerClient < 0) {
            throw new IllegalArgumentException("http: max_conns_per_client must be 0 (no limit) or more");
        }
    }

    /** These limits with the default per-client cap ({@value #DEFAULT_MAX_CONNS_PER_CLIENT}). */
    public HttpConfig(List<String> allowedHosts, int maxConns, Duration headerTimeout, Duration idleTimeout) {
        this(allowedHosts, maxConns, headerTimeout, idleTimeout, DEFAULT_MAX_CONNS_PER_CLIENT);
    }

    /** A copy with another {@code max_conns_per_client} (0: no per-client limit). */
    public HttpConfig withMaxConnsPerClient(int n) {
        return new HttpConfig(allowedHosts, maxConns, headerTimeout, idleTimeout, n);
    }

    /** Default limits with these allowed hosts. */
    public HttpConfig(List<String> allowedHosts) {
        this(allowedHosts, DEFAULT_MAX_CONNS, DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_TIMEOUT);
    }

    public static HttpConfig defaults() {
        return new HttpConfig(List.of());
    }
}
