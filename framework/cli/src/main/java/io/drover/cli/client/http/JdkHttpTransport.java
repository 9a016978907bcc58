package io.drover.cli.client.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * The JDK's {@code java.net.http} client, for addresses that are not {@code http://} (an agent behind a TLS
 * proxy, docs/security.md). Slower to start than {@link SocketHttpTransport}; the same contract. Thread-safe.
 */
final class JdkHttpTransport implements HttpTransport {
    @Override
    public HttpResponseStream send(String method, URI uri, String token, String body, Duration timeout)
            throws IOException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofMillis(SocketHttpTransport.CONNECT_TIMEOUT_MS)).build();
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout.isZero() ? Duration.ofDays(365) : timeout);
        if (token != null) {
            b.header("X-Nomad-Token", token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpRequest req = b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<InputStream> r;
        try {
            r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            throw new ConnectFailure(ConnectFailure.TIMED_OUT);
        } catch (ConnectException e) {
            throw unresolved(e) ? ConnectFailure.unknownHost(uri.getHost()) : new ConnectFailure(ConnectFailure.REFUSED);
        } catch (HttpTimeoutException e) {
            throw new IOException(DeadlineInput.TIMED_OUT, e);
        } catch (IOException e) {
            if (unresolved(e)) {
                throw ConnectFailure.unknownHost(uri.getHost());
            }
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        InputStream in = r.body();
        int status = r.statusCode();
        return new HttpResponseStream() {
            @Override
            public int status() {
                return status;
            }

            @Override
            public InputStream body() {
                return in;
            }

            @Override
            public void close() {
                try {
                    in.close();
                } catch (IOException ignored) {
                    // nothing to release
                }
            }
        };
    }

    /** Whether the host name did not resolve (the JDK's client reports it as a failed connect). */
    private static boolean unresolved(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }
}
