package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * While the agent cannot record changes (its store cannot write to data_dir), requests that change state get 503
 * with the one-line reason and reads keep answering; when the reason goes, changes are accepted again. The real
 * fault (a full tmpfs under a real agent) is DataDirFullTest in framework/cli.
 */
class WritesRefusedTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void changesGet503WithTheReasonWhileReadsAnswerAndTheyResumeWhenItGoes() throws Exception {
        AtomicReference<String> reason = new AtomicReference<>("data_dir problem: state store cannot write to "
                + "/d/state/journal-0000000001.log: No space left on device; 3 change(s) held in memory, retrying");
        Router router = new Router()
                .add("GET", "/v1/jobs", r -> r.respond(200, Map.of("ok", true)))
                .add("PUT,POST", "/v1/jobs", r -> r.respond(200, Map.of("registered", true)))
                .add("DELETE", "/v1/job/:id", r -> r.respond(200, Map.of()));
        try (ApiServer api = ApiServer.start("127.0.0.1", 0, router, null,
                () -> Optional.ofNullable(reason.get()))) {
            String base = "http://127.0.0.1:" + api.port();

            HttpResponse<String> put = send(base + "/v1/jobs", "PUT");
            assertThat(put.statusCode()).isEqualTo(503);
            assertThat(Json.MAPPER.readTree(put.body()).path("error").asText()).isEqualTo(reason.get());
            assertThat(send(base + "/v1/job/x", "DELETE").statusCode()).isEqualTo(503);
            assertThat(send(base + "/v1/jobs", "GET").statusCode()).isEqualTo(200);
            assertThat(send(base + "/v1/nothing", "PUT").statusCode()).as("routing errors first").isEqualTo(404);

            reason.set(null);
            assertThat(send(base + "/v1/jobs", "PUT").statusCode()).isEqualTo(200);
        }
    }

    private static HttpResponse<String> send(String url, String method) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
