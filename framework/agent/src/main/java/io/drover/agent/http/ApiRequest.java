package io.drover.agent.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * One API request on a server thread (a Jetty {@link Request}, its {@link Response} and the {@link Callback} that
 * completes the exchange): path parameters, decoded query, a size-limited body and JSON responses, all blocking.
 * Not thread-safe; owned by the thread handling the exchange until {@link #detach()} hands the exchange to
 * someone else (a log follower), after which the dispatcher neither answers nor completes it.
 */
public final class ApiRequest {
    /** Largest request body accepted (1 MiB); a bigger one is refused with 413 after reading limit+1 bytes. */
    public static final int MAX_BODY_BYTES = 1 << 20;
    /**
     * How much of a refused body is read and dropped (never kept) before answering 413: closing a socket with
     * unread input makes the kernel reset it, and the client would lose the 413. Past this, the reset it is.
     */
    static final long MAX_DISCARD_BYTES = 16L << 20;

    private final Request request;
    private final Response response;
    private final Exchange exchange;
    private final Map<String, String> pathParams;
    private Map<String, String> query;
    private boolean responded;
    private boolean detached;

    ApiRequest(Request request, Response response, Exchange exchange, Map<String, String> pathParams) {
        this.request = request;
        this.response = response;
        this.exchange = exchange;
        this.pathParams = pathParams;
    }

    /**
     * The end of one exchange: {@link #close()} completes it (the response ends, the connection may serve the next
     * request), {@link #abort(Throwable)} fails it (the connection is closed). Only the first call counts; any thread.
     */
    static final class Exchange implements AutoCloseable {
        private final Callback callback;
        private final AtomicBoolean done = new AtomicBoolean();

        Exchange(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void close() {
            if (done.compareAndSet(false, true)) {
                callback.succeeded();
            }
        }

        void abort(Throwable why) {
            if (done.compareAndSet(false, true)) {
                callback.failed(why);
            }
        }
    }

    /** The exchange's end, for whoever takes it over after {@link #detach()}. */
    public AutoCloseable exchange() {
        return exchange;
    }

    /** The request URI, for log lines. */
    String uri() {
        return String.valueOf(request.getHttpURI());
    }

    /** Completes the exchange (the dispatcher's end of a request it did not hand over). */
    void complete() {
        exchange.close();
    }

    /** Fails the exchange: the connection is closed. */
    void abort(Throwable why) {
        exchange.abort(why);
    }

    public String method() {
        return request.getMethod();
    }

    /** A request header's first value; null when absent. */
    String header(String name) {
        return request.getHeaders().get(name);
    }

    /** A {@code :name} segment of the route, percent-decoded (so it may contain {@code /}: validate it). */
    public String path(String name) {
        return pathParams.get(name);
    }

    /** A query parameter, percent-decoded; null when absent (the first value when repeated). */
    public String query(String name) {
        if (query == null) {
            query = parseQuery(request.getHttpURI().getQuery());
        }
        return query.get(name);
    }

    /** Every value of a repeated query parameter, percent-decoded, in order; empty when absent. */
    public java.util.List<String> queryAll(String name) {
        String raw = request.getHttpURI().getQuery();
        java.util.List<String> out = new java.util.ArrayList<>();
        if (raw == null) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            if (!pair.isEmpty() && decode(eq < 0 ? pair : pair.substring(0, eq)).equals(name)) {
                out.add(eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return out;
    }

    public boolean queryFlag(String name) throws ApiException {
        String v = query(name);
        if (v == null || v.isEmpty()) {
            return false;
        }
        if (v.equals("true") || v.equals("false")) {
            return v.equals("true");
        }
        throw ApiException.badRequest("query parameter " + name + " must be true or false, not \"" + v + "\"");
    }

    /**
     * The request body, at most {@link #MAX_BODY_BYTES}: reads at most one byte more than the limit, so a
     * huge or endless body costs bounded memory.
     *
     * @throws ApiException 413 when the body is over the limit
     */
    public byte[] body() throws ApiException, IOException {
        InputStream in = Content.Source.asInputStream(request);
        String declared = header("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > MAX_BODY_BYTES) {
                    throw tooLarge(in);
                }
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid Content-Length");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf, 0, (int) Math.min(buf.length, MAX_BODY_BYTES + 1L - out.size()))) > 0) {
            out.write(buf, 0, n);
            if (out.size() > MAX_BODY_BYTES) {
                throw tooLarge(in);
            }
        }
        return out.toByteArray();
    }

    private ApiException tooLarge(InputStream rest) throws IOException {
        long dropped = 0;
        byte[] sink = new byte[8192];
        int n;
        while (dropped < MAX_DISCARD_BYTES && (n = rest.read(sink)) > 0) {
            dropped += n;
        }
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        return new ApiException(413, "request body is larger than " + MAX_BODY_BYTES + " bytes");
    }

    /** Sets a response header (before the response is sent). */
    public void setHeader(String name, String value) {
        response.getHeaders().put(name, value);
    }

    /** The raw path as sent (percent escapes kept). */
    String rawPath() {
        String p = request.getHttpURI().getPath();
        return p == null || p.isEmpty() ? "/" : p;
    }

    /** The Jetty response, for a handler that writes asynchronously after {@link #detach()}. */
    Response jettyResponse() {
        return response;
    }

    /** Answers with {@code value} as JSON. */
    public void respond(int status, Object value) throws IOException {
        byte[] bytes = Json.MAPPER.writeValueAsBytes(value);
        respondBytes(status, "application/json", bytes);
    }

    void respondBytes(int status, String contentType, byte[] bytes) throws IOException {
        responded = true;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        Content.Sink.write(response, true, ByteBuffer.wrap(bytes)); // blocking
    }

    /**
     * Starts a streamed (chunked) response: sends the headers now; the caller writes and closes the body. A write
     * that fails or is interrupted (a stalled follower) aborts the exchange at once, which closes the connection;
     * after that the stream's writes fail and its close does nothing.
     */
    public OutputStream startStream(int status, String contentType) throws IOException {
        responded = true;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        Content.Sink.write(response, false, ByteBuffer.allocate(0)); // commits: the client sees the headers
        return new StreamBody(Content.Sink.asOutputStream(response), exchange);
    }

    /** A streamed body whose first failed write aborts the exchange (no blocking close on a broken connection). */
    private static final class StreamBody extends OutputStream {
        private final OutputStream out;
        private final Exchange exchange;
        private boolean broken;

        StreamBody(OutputStream out, Exchange exchange) {
            this.out = out;
            this.exchange = exchange;
        }

        private IOException broke(IOException e) {
            broken = true;
            exchange.abort(e);
            return e;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (broken) {
                throw new IOException("connection closed");
            }
            try {
                out.write(b, off, len);
            } catch (IOException e) {
                throw broke(e);
            }
        }

        @Override
        public void flush() throws IOException {
            if (broken) {
                throw new IOException("connection closed");
            }
            try {
                out.flush();
            } catch (IOException e) {
                throw broke(e);
            }
        }

        @Override
        public void close() throws IOException {
            if (broken) {
                return;
            }
            try {
                out.close();
            } catch (IOException e) {
                throw broke(e);
            }
        }
    }

    boolean responded() {
        return responded;
    }

    /** Hands the exchange over: from now on its new owner answers and closes it. */
    public void detach() {
        detached = true;
    }

    /** Takes a detached exchange back (a parked blocking query being answered): the runner completes it again. */
    void reattach() {
        detached = false;
    }

    boolean detached() {
        return detached;
    }

    private static Map<String, String> parseQuery(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Collections.emptyMap();
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            String v = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.putIfAbsent(k, v);
        }
        return out;
    }

    /** Percent-decoding that never throws: a malformed escape is kept as written (and later refused). */
    static String decode(String s) {
        try {
            return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }
}
