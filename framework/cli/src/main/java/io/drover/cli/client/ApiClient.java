package io.drover.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A client of the agent's HTTP API (framework/agent/README.md). Every failure is a {@link UserException} with
 * one line: no agent at the address ({@link ExitCodes#FAILED}, at once: a refused connection is not retried),
 * or the API's {@code error} message (exit code {@link ExitCodes#USAGE} for a 400, the agent refused the input;
 * {@link ExitCodes#FAILED} otherwise). Thread-safe.
 */
public final class ApiClient {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final String address;
    private final String token;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();

    /**
     * @param address {@code http://host:port}, no trailing slash needed
     * @param token sent as {@code X-Nomad-Token} when not null
     */
    public ApiClient(String address, String token) {
        this.address = address.endsWith("/") ? address.substring(0, address.length() - 1) : address;
        this.token = token;
    }

    public String address() {
        return address;
    }

    public JsonNode get(String path) {
        return json(send("GET", path, null));
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

    /** A streamed GET body (log follows); the caller closes it. */
    public InputStream stream(String path) {
        HttpResponse<InputStream> r = exchange(request("GET", path, null, Duration.ofDays(365)),
                HttpResponse.BodyHandlers.ofInputStream());
        if (r.statusCode() >= 400) {
            try (InputStream in = r.body()) {
                throw error(r.statusCode(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw error(r.statusCode(), "");
            }
        }
        return r.body();
    }

    private String send(String method, String path, String body) {
        HttpResponse<String> r = exchange(request(method, path, body, REQUEST_TIMEOUT),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 400) {
            throw error(r.statusCode(), r.body());
        }
        return r.body();
    }

    private HttpRequest request(String method, String path, String body, Duration timeout) {
        HttpRequest.Builder b;
        try {
            b = HttpRequest.newBuilder(URI.create(address + path)).timeout(timeout);
        } catch (IllegalArgumentException e) {
            throw UserException.badInput("bad agent address " + address + ": " + e.getMessage());
        }
        if (token != null && !token.isEmpty()) {
            b.header("X-Nomad-Token", token);
        }
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        return b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private <T> HttpResponse<T> exchange(HttpRequest req, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(req, handler);
        } catch (ConnectException e) {
            throw noAgent(unresolved(e) ? "unknown host " + req.uri().getHost() : "connection refused");
        } catch (HttpConnectTimeoutException e) {
            throw noAgent("connect timed out");
        } catch (IOException e) {
            if (unresolved(e)) {
                throw noAgent("unknown host " + req.uri().getHost());
            }
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new UserException("request to the agent at " + address + " failed: " + why, ExitCodes.FAILED);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserException("interrupted", ExitCodes.FAILED);
        }
    }

    /** Whether the address's host name did not resolve (the HTTP client reports it as a failed connect). */
    private static boolean unresolved(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.nio.channels.UnresolvedAddressException || t instanceof java.net.UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    private UserException noAgent(String why) {
        return new UserException("no Drover agent at " + address + " (" + why + "); start one with "
                + "'drover agent -config FILE' or set -address/DROVER_ADDR", ExitCodes.FAILED);
    }

    /** The API's {@code {"error": "..."}} message, or the status when the body is not that. */
    private static UserException error(int status, String body) {
        int code = status == 400 ? ExitCodes.USAGE : ExitCodes.FAILED;
        try {
            JsonNode e = JSON.readTree(body).path("error");
            if (e.isTextual() && !e.asText().isBlank()) {
                return new UserException(e.asText(), code);
            }
        } catch (IOException | RuntimeException notJson) {
            // fall through
        }
        return new UserException("the agent answered HTTP " + status, code);
    }

    private static JsonNode json(String body) {
        try {
            return body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UserException("the agent's answer is not JSON: " + e.getOriginalMessage(), ExitCodes.FAILED);
        }
    }
}
