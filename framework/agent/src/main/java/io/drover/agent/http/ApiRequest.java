package io.drover.agent.http;

import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One API request on a server thread: path parameters, decoded query, a size-limited body and JSON responses.
 * Not thread-safe; owned by the thread handling the exchange until {@link #detach()} hands the exchange to
 * someone else (a log follower), after which the dispatcher neither answers nor closes it.
 */
public final class ApiRequest {
    /** Largest request body accepted (1 MiB); a bigger one is refused with 413 after reading limit+1 bytes. */
    public static final int MAX_BODY_BYTES = 1 << 20;
    /**
     * How much of a refused body is read and dropped (never kept) before answering 413: closing a socket with
     * unread input makes the kernel reset it, and the client would lose the 413. Past this, the reset it is.
     */
    static final long MAX_DISCARD_BYTES = 16L << 20;

    private final HttpExchange exchange;
    private final Map<String, String> pathParams;
    private Map<String, String> query;
    private boolean responded;
    private boolean detached;

    ApiRequest(HttpExchange exchange, Map<String, String> pathParams) {
        this.exchange = exchange;
        this.pathParams = pathParams;
    }

    public HttpExchange exchange() {
        return exchange;
    }

    public String method() {
        return exchange.getRequestMethod();
    }

    /** A {@code :name} segment of the route, percent-decoded (so it may contain {@code /}: validate it). */
    public String path(String name) {
        return pathParams.get(name);
    }

    /** A query parameter, percent-decoded; null when absent (the first value when repeated). */
    public String query(String name) {
        if (query == null) {
            query = parseQuery(exchange.getRequestURI().getRawQuery());
        }
        return query.get(name);
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
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared != null) {
            try {
                if (Long.parseLong(declared.trim()) > MAX_BODY_BYTES) {
                    throw tooLarge(exchange.getRequestBody());
                }
            } catch (NumberFormatException e) {
                throw ApiException.badRequest("invalid Content-Length");
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        InputStream in = exchange.getRequestBody();
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
        exchange.getResponseHeaders().set("Connection", "close");
        return new ApiException(413, "request body is larger than " + MAX_BODY_BYTES + " bytes");
    }

    /** Answers with {@code value} as JSON. */
    public void respond(int status, Object value) throws IOException {
        byte[] bytes = Json.MAPPER.writeValueAsBytes(value);
        respondBytes(status, "application/json", bytes);
    }

    void respondBytes(int status, String contentType, byte[] bytes) throws IOException {
        responded = true;
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Starts a streamed (chunked) response; the caller writes and closes the body. */
    public OutputStream startStream(int status, String contentType) throws IOException {
        responded = true;
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, 0);
        return exchange.getResponseBody();
    }

    boolean responded() {
        return responded;
    }

    /** Hands the exchange over: from now on its new owner answers and closes it. */
    public void detach() {
        detached = true;
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
