package io.drover.agent;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One HTTP/1.1 request written byte for byte on a plain socket (so a test controls every header, {@code Host}
 * included, which {@code java.net.http} refuses to set), read to the end ({@code Connection: close}).
 */
final class RawHttp {
    /** A response: status and body (after the blank line, chunked or not, as sent). */
    record Resp(int status, String body) {}

    private RawHttp() {}

    /**
     * @param headers each {@code "Name: value"}; {@code Connection: close} and, with a body, its
     *     {@code Content-Length} are added
     */
    static Resp send(int port, String method, String path, String body, String... headers) throws IOException {
        StringBuilder req = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        for (String h : headers) {
            req.append(h).append("\r\n");
        }
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            req.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        req.append("Connection: close\r\n\r\n");
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int sp = text.indexOf(' ');
            if (!text.startsWith("HTTP/1.") || sp < 0 || text.length() < sp + 4) {
                throw new IOException("no HTTP response: \"" + text + "\"");
            }
            int end = text.indexOf("\r\n\r\n");
            return new Resp(Integer.parseInt(text.substring(sp + 1, sp + 4)), end < 0 ? "" : text.substring(end + 4));
        }
    }
}
