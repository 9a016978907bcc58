package io.drover.cli.client.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * HTTP/1.1 over a plain {@link Socket}, one connection per request ({@code Connection: close}), for {@code http://}
 * addresses. It exists for start-up time: {@code java.net.http} costs a CLI call about half a second of class
 * loading and set-up (its selector thread, the TLS context and trust store, even for {@code http://}), this
 * costs a few classes (docs/performance.md, "Client commands"). Requests carry {@code Host} as the address
 * spells it (the agent checks it, docs/security.md), {@code Content-Type: application/json} and
 * {@code Content-Length} with a body. Stateless and thread-safe; blocking, on the caller's thread.
 */
final class SocketHttpTransport implements HttpTransport {
    static final int CONNECT_TIMEOUT_MS = 5_000;

    @Override
    public HttpResponseStream send(String method, URI uri, String token, String body, Duration timeout)
            throws IOException {
        long deadline = timeout.isZero() ? 0 : System.nanoTime() + timeout.toNanos();
        Socket socket = connect(uri, deadline);
        try {
            socket.setTcpNoDelay(true);
            OutputStream out = socket.getOutputStream();
            out.write(request(method, uri, token, body));
            out.flush();
            return Http1Response.read(socket, new DeadlineInput(socket, deadline));
        } catch (IOException | RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /** The request head and body as bytes, written in one piece. */
    static byte[] request(String method, URI uri, String token, String body) {
        String target = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            target += "?" + uri.getRawQuery();
        }
        String authority = uri.getRawAuthority();
        int at = authority.lastIndexOf('@');
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: ").append(at >= 0 ? authority.substring(at + 1) : authority).append("\r\n")
                .append("Connection: close\r\n")
                .append("Accept: application/json\r\n");
        if (token != null) {
            head.append("X-Nomad-Token: ").append(token).append("\r\n");
        }
        byte[] payload = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            head.append("Content-Type: application/json\r\n");
        }
        if (body != null || !"GET".equals(method)) {
            head.append("Content-Length: ").append(payload.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[h.length + payload.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(payload, 0, all, h.length, payload.length);
        return all;
    }

    /** Tries each address of the host in turn (localhost: 127.0.0.1, then ::1); the last failure wins. */
    private static Socket connect(URI uri, long deadline) throws IOException {
        String host = uri.getHost();
        if (host == null) {
            throw ConnectFailure.unknownHost(String.valueOf(uri.getRawAuthority()));
        }
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw ConnectFailure.unknownHost(host);
        }
        ConnectFailure last = new ConnectFailure(ConnectFailure.REFUSED);
        for (InetAddress a : addresses) {
            Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(a, port), connectTimeout(deadline));
                return s;
            } catch (SocketTimeoutException e) {
                last = new ConnectFailure(ConnectFailure.TIMED_OUT);
            } catch (ConnectException e) {
                last = new ConnectFailure(ConnectFailure.REFUSED);
            } catch (IOException e) {
                last = new ConnectFailure(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
            }
            closeQuietly(s);
        }
        throw last;
    }

    private static int connectTimeout(long deadline) {
        if (deadline == 0) {
            return CONNECT_TIMEOUT_MS;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        return (int) Math.max(1, Math.min(CONNECT_TIMEOUT_MS, left));
    }

    static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing to release
        }
    }
}
