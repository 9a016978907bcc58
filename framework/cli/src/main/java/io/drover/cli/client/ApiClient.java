package io.drover.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import io.drover.cli.client.http.ConnectFailure;
import io.drover.cli.client.http.HttpResponseStream;
import io.drover.cli.client.http.HttpTransport;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Duration;

/**
 * A client of the agent's HTTP API (framework/agent/README.md). Every failure is a {@link UserException} with
 * one line: no agent at the address ({@link ExitCodes#FAILED}, at once: a refused connection is not retried),
 * or the API's {@code error} message (exit code {@link ExitCodes#USAGE} for a 400, the agent refused the input;
 * {@link ExitCodes#FAILED} otherwise). Each call is one connection ({@link HttpTransport}: a plain socket for
 * {@code http://}, the JDK's client for {@code https://}), blocking on the caller's thread. Thread-safe.
 */
public final class ApiClient implements RequestJson {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String address;
    private final String token;
    private final HttpTransport http;

    /**
     * @param address {@code http://host:port}, no trailing slash needed
     * @param token sent as {@code X-Nomad-Token} when not null
     * @throws UserException (exit 2) when the token cannot be sent as a header (a control character in it)
     */
    public ApiClient(String address, String token) {
        this.address = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
        this.token = token == null || token.isEmpty() ? null : checkToken(token);
        int colon = this.address.indexOf("://");
        this.http = HttpTransport.forScheme(colon > 0 ? this.address.substring(0, colon) : "");
    }

    public String address() {
        return address;
    }

    public JsonNode get(String path) {
        return json(send("GET", path, null));
    }

    /**
     * A GET's answer as a {@link Json} tree: what the short read-only commands read, without databind's classes
     * (docs/performance.md, session 13).
     */
    public Json read(String path) {
        String body = send("GET", path, null);
        try {
            return body.isBlank() ? Json.emptyObject() : Json.parse(body);
        } catch (IOException e) {
            throw notJson(e.getMessage());
        }
    }

    /** The raw body of a GET (for {@code -json}: printed exactly as the API sent it). */
    public String getText(String path) {
        return send("GET", path, null);
    }

    public JsonNode put(String path, String body) {
        return json(send("PUT", path, body));
    }

    public JsonNode post(String path, String body) {
        return json(send("POST", path, body));
    }

    public JsonNode delete(String path) {
        return json(send("DELETE", path, null));
    }

    /** A streamed GET body (log follows), with no time limit once connected; the caller closes it. */
    public InputStream stream(String path) {
        HttpResponseStream r = exchange("GET", path, null, Duration.ZERO);
        if (r.status() >= 400) {
            try (r) {
                throw error(r.status(), r.text());
            } catch (IOException e) {
                throw error(r.status(), "");
            }
        }
        InputStream body = r.body();
        return new java.io.FilterInputStream(body) {
            @Override
            public void close() {
                r.close();
            }
        };
    }

    private String send(String method, String path, String body) {
        try (HttpResponseStream r = exchange(method, path, body, REQUEST_TIMEOUT)) {
            String text = r.text();
            io.drover.cli.Marks.mark("http " + method + " " + path + " " + r.status());
            if (r.status() >= 400) {
                throw error(r.status(), text);
            }
            return text;
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private HttpResponseStream exchange(String method, String path, String body, Duration timeout) {
        URI uri = uri(path);
        try {
            return http.send(method, uri, token, body, timeout);
        } catch (ConnectFailure e) {
            throw noAgent(e.getMessage());
        } catch (IOException e) {
            throw failed(e);
        }
    }

    private URI uri(String path) {
        try {
            URI uri = URI.create(address + path);
            if (uri.getScheme() == null || uri.getRawAuthority() == null) {
                throw new IllegalArgumentException("no scheme and host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw UserException.badInput("bad agent address " + address + ": " + e.getMessage());
        }
    }

    private UserException failed(IOException e) {
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new UserException("request to the agent at " + address + " failed: " + why, ExitCodes.FAILED);
    }

    /** A token is a header value: printable ASCII without control characters (the agent refuses others too). */
    private static String checkToken(String token) {
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                throw UserException.badInput("the API token (-token or DROVER_TOKEN) contains a character that "
                        + "cannot be sent in an HTTP header (position " + (i + 1) + ")");
            }
        }
        return token;
    }

    private UserException noAgent(String why) {
        return new UserException("no Drover agent at " + address + " (" + why + "); start one with "
                + "'drover agent -config FILE' or set -address/DROVER_ADDR", ExitCodes.FAILED);
    }

    /** The API's {@code {"error": "..."}} message, or the status when the body is not that. */
    private static UserException error(int status, String body) {
        int code = status == 400 ? ExitCodes.USAGE : ExitCodes.FAILED;
        try {
            Json e = Json.parse(body).path("error");
            if (e.isTextual() && !e.asText().isBlank()) {
                return new UserException(e.asText(), code);
            }
        } catch (IOException | RuntimeException notJson) {
            // fall through
        }
        return new UserException("the agent answered HTTP " + status, code);
    }

    /**
     * Databind's tree of a body, read in {@link JsonTree} so that verifying this class loads none of databind's
     * node classes nor Jackson's exceptions (the short commands never call it: docs/performance.md, session 14).
     */
    private static JsonNode json(String body) {
        return JsonTree.answer(body);
    }

    static UserException notJson(String why) {
        return new UserException("the agent's answer is not JSON: " + why, ExitCodes.FAILED);
    }
}
