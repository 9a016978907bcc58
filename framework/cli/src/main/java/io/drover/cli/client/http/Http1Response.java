package io.drover.cli.client.http;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Reads an HTTP/1.1 response from a connection: the status line and headers (at most {@link #MAX_HEAD} bytes,
 * interim 1xx answers skipped), then frames the body by {@code Transfer-Encoding: chunked}, else
 * {@code Content-Length}, else the end of the connection. A malformed answer is an {@link IOException} naming
 * what was wrong. One thread uses it.
 */
final class Http1Response implements HttpResponseStream {
    static final int MAX_HEAD = 64 * 1024;

    private final Socket socket;
    private final int status;
    private final InputStream body;

    private Http1Response(Socket socket, int status, InputStream body) {
        this.socket = socket;
        this.status = status;
        this.body = body;
    }

    static Http1Response read(Socket socket, InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 8192);
        Limit limit = new Limit();
        while (true) {
            String statusLine = line(in, limit);
            int status = status(statusLine);
            long length = -1;
            boolean chunked = false;
            for (String h; !(h = line(in, limit)).isEmpty(); ) {
                int colon = h.indexOf(':');
                if (colon <= 0) {
                    throw malformed("header line without a name: " + clip(h));
                }
                String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = h.substring(colon + 1).trim();
                if (name.equals("transfer-encoding")) {
                    chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
                } else if (name.equals("content-length")) {
                    length = contentLength(value);
                }
            }
            if (status >= 100 && status < 200) {
                continue; // 100 Continue and friends: the real answer follows
            }
            InputStream body;
            if (status == 204 || status == 304) {
                body = InputStream.nullInputStream();
            } else if (chunked) {
                body = new ChunkedInput(in);
            } else if (length >= 0) {
                body = new LengthInput(in, length);
            } else {
                body = in; // until the agent closes the connection
            }
            return new Http1Response(socket, status, body);
        }
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public InputStream body() {
        return body;
    }

    @Override
    public void close() {
        SocketHttpTransport.closeQuietly(socket);
    }

    private static int status(String line) throws IOException {
        // "HTTP/1.1 200 OK": the version, a space, three digits
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
            throw malformed("not an HTTP/1.x status line: " + clip(line));
        }
        try {
            int status = Integer.parseInt(line.substring(9, 12));
            if (status < 100 || status > 599) {
                throw malformed("status out of range: " + clip(line));
            }
            return status;
        } catch (NumberFormatException e) {
            throw malformed("not an HTTP/1.x status line: " + clip(line));
        }
    }

    private static long contentLength(String value) throws IOException {
        try {
            long n = Long.parseLong(value);
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw malformed("bad Content-Length " + clip(value));
    }

    /** The bytes of the response head read so far, across 1xx answers. */
    private static final class Limit {
        int used;
    }

    /** One line without its CR LF (a bare LF ends it too); EOF before the end of the head is an error. */
    static String line(InputStream in, Limit limit) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("the agent closed the connection before the end of its answer's headers");
            }
            if (limit != null && ++limit.used > MAX_HEAD) {
                throw malformed("headers longer than " + MAX_HEAD + " bytes");
            }
            if (c == '\n') {
                int n = sb.length();
                if (n > 0 && sb.charAt(n - 1) == '\r') {
                    sb.setLength(n - 1);
                }
                return sb.toString();
            }
            sb.append((char) c); // ISO-8859-1: header values are not decoded further
        }
    }

    static IOException malformed(String what) {
        return new IOException("malformed HTTP answer from the agent: " + what);
    }

    private static String clip(String s) {
        String printable = new String(s.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.US_ASCII)
                .replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 60 ? printable.substring(0, 60) + "..." : printable;
    }

    /** A body of exactly {@code length} bytes; fewer before the connection ends is an error. */
    private static final class LengthInput extends InputStream {
        private final InputStream in;
        private long left;

        LengthInput(InputStream in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new IOException("the agent closed the connection " + left + " bytes before the end of its "
                        + "answer");
            }
            left -= n;
            return n;
        }
    }

    /** {@code Transfer-Encoding: chunked}: hex size lines (extensions ignored), data, then trailers. */
    private static final class ChunkedInput extends InputStream {
        private final InputStream in;
        private long left; // bytes left in the current chunk
        private boolean done;

        ChunkedInput(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (left == 0 && !nextChunk()) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new IOException("the agent closed the connection inside a chunk of its answer");
            }
            left -= n;
            if (left == 0) {
                endOfChunk();
            }
            return n;
        }

        private boolean nextChunk() throws IOException {
            if (done) {
                return false;
            }
            String size = line(in, new Limit());
            int semi = size.indexOf(';');
            String hex = (semi >= 0 ? size.substring(0, semi) : size).trim();
            try {
                left = Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                throw malformed("bad chunk size " + clip(size));
            }
            if (left < 0) {
                throw malformed("bad chunk size " + clip(size));
            }
            if (left == 0) {
                Limit trailers = new Limit();
                while (!line(in, trailers).isEmpty()) {
                    // trailers are not used
                }
                done = true;
                return false;
            }
            return true;
        }

        private void endOfChunk() throws IOException {
            if (!line(in, new Limit()).isEmpty()) {
                throw malformed("no line end after a chunk");
            }
        }
    }
}
