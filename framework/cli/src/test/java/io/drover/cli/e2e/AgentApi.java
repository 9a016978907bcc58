package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A child agent's HTTP API as the e2e tests read it: raw requests, and allocations as JSON. Thread-safe. */
final class AgentApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private AgentApi() {}

    /** One request ({@code body} null for none), 10 s timeout. */
    static HttpResponse<String> send(String method, String url, String body)
            throws java.io.IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (body != null) {
            b.header("Content-Type", "application/json"); // as the CLI sends: the agent refuses other bodies
        }
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** {@code GET /v1/allocation/:id}, which must answer 200. */
    static JsonNode alloc(String addr, String id) throws Exception {
        HttpResponse<String> r = send("GET", addr + "/v1/allocation/" + id, null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** A task's State ("" when the task is missing). */
    static String state(JsonNode alloc, String task) {
        return alloc.path("TaskStates").path(task).path("State").asText();
    }

    /** A task's events, oldest first (empty when the task is missing). */
    static List<JsonNode> events(JsonNode alloc, String task) {
        List<JsonNode> out = new ArrayList<>();
        alloc.path("TaskStates").path(task).path("Events").forEach(out::add);
        return out;
    }
}
