package io.drover.cli.client.http;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * One HTTP/1.1 exchange with the agent, opened per request (no keep-alive: a CLI process makes one to three
 * calls). Blocking, on the caller's thread; implementations are stateless and thread-safe.
 *
 * <p>Failures are {@link IOException}s: a {@link ConnectFailure} when no connection could be made (the reason is
 * one of {@link ConnectFailure#REFUSED}, {@link ConnectFailure#TIMED_OUT} or {@code unknown host NAME}), any other
 * {@link IOException} (message {@code request timed out} for the deadline) once connected.
 */
public interface HttpTransport {
    /**
     * Sends a request and returns once the status line and headers have arrived; the body is read from the
     * response's stream, which the caller closes (that closes the connection).
     *
     * @param uri an absolute URI of the transport's scheme: its raw path and query are sent as they are
     * @param token sent as {@code X-Nomad-Token} when not null; the caller has checked it is a legal header value
     * @param body the request body (sent as {@code application/json}), or null for none
     * @param timeout from the connect to the end of the body; {@link Duration#ZERO} for no limit after the connect
     */
    HttpResponseStream send(String method, URI uri, String token, String body, Duration timeout) throws IOException;

    /** The transport for the address's scheme: a plain socket for {@code http}, the JDK's client otherwise. */
    static HttpTransport forScheme(String scheme) {
        return "http".equalsIgnoreCase(scheme) ? new SocketHttpTransport() : new JdkHttpTransport();
    }
}
