package io.drover.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal HTTP/1.1 keep-alive client to a loopback port: one request at a time, Content-Length bodies only.
 * Small and allocation-light so the client side adds little to the latencies measured. Not thread-safe: one
 * connection per thread.
 */
final class HttpConn implements AutoCloseable {
    /** A response's status and body. */
    record Response(int status, byte[] body) {}

    private static final byte[] NO_BODY = new byte[0];

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final byte[] scratch = new byte[8192];

    HttpConn(int port) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
        socket.setSoTimeout(30_000);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** A GET whose body is read and dropped, not kept: the load's requests allocate only their request line. */
    int get(String path) throws IOException {
        return exchange("GET", path, null, false).status();
    }

    Response send(String method, String path, byte[] body) throws IOException {
        return exchange(method, path, body, true);
    }

    private Response exchange(String method, String path, byte[] body, boolean keepBody) throws IOException {
        StringBuilder req = new StringBuilder(method).append(' ').append(path)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\n");
        if (body != null) {
            req.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        req.append("\r\n");
        out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        String status = line();
        if (status == null) {
            throw new IOException("connection closed");
        }
        int code = Integer.parseInt(status.split(" ")[1]);
        int length = -1;
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            if (colon > 0 && h.substring(0, colon).equalsIgnoreCase("Content-Length")) {
                length = Integer.parseInt(h.substring(colon + 1).trim());
            }
        }
        if (!keepBody) {
            for (int left = Math.max(0, length); left > 0; ) {
                int n = in.read(scratch, 0, Math.min(scratch.length, left));
                if (n < 0) {
                    throw new IOException("connection closed");
                }
                left -= n;
            }
            return new Response(code, NO_BODY);
        }
        byte[] bytes = length > 0 ? in.readNBytes(length) : NO_BODY;
        return new Response(code, bytes);
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return sb.length() == 0 ? null : sb.toString();
            }
            if (c != '\r') {
                sb.append((char) c);
            }
        }
        return sb.toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
