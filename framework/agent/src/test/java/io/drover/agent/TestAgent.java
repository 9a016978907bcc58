package io.drover.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.state.AllocationState;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A real agent on an ephemeral loopback port, with the mock driver plugin JAR (built by the reactor and
 * copied to target/test-plugins) in an owner-only plugin dir, and an HTTP/1.1 client for it.
 */
public final class TestAgent implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    final Agent agent;
    final AtomicInteger gcRequests = new AtomicInteger();
    final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private String token;

    private TestAgent(Agent agent) {
        this.agent = agent;
    }

    static TestAgent start(Path tmp) throws Exception {
        return start(tmp, null, null);
    }

    /** @param allocIds null for random ids */
    static TestAgent start(Path tmp, String aclToken, Supplier<String> allocIds) throws Exception {
        return start(tmp, aclToken, allocIds, ClientConfig.defaults());
    }

    /** @param client the config's client block (GC limits, kill policy) */
    static TestAgent start(Path tmp, String aclToken, Supplier<String> allocIds, ClientConfig client)
            throws Exception {
        return start(tmp, aclToken, allocIds, client, null);
    }

    /** @param http the config's http block (connection limits); null for the defaults */
    static TestAgent start(Path tmp, String aclToken, Supplier<String> allocIds, ClientConfig client,
            io.drover.core.config.HttpConfig http) throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwx------"));
        try (var jars = Files.list(Path.of(System.getProperty("drover.test.plugins", "target/test-plugins")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.copy(jar, plugins.resolve(jar.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        AgentConfig config = new AgentConfig(tmp.resolve("data"), plugins, "INFO", "127.0.0.1", 0,
                client, Map.of(), aclToken, null, http);
        TestAgent[] self = new TestAgent[1];
        Runnable gc = () -> self[0].gcRequests.incrementAndGet();
        Agent agent = allocIds == null ? Agent.start(config, gc) : Agent.start(config, gc, allocIds);
        self[0] = new TestAgent(agent);
        self[0].token = aclToken;
        return self[0];
    }

    URI uri(String pathAndQuery) {
        return URI.create(agent.address() + pathAndQuery);
    }

    HttpRequest.Builder request(String pathAndQuery) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(20));
        if (token != null) {
            b.header("X-Nomad-Token", token);
        }
        return b;
    }

    Resp send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
        return new Resp(r.statusCode(), r.body(), r.headers().firstValue("Content-Type").orElse(""));
    }

    Resp get(String path) throws Exception {
        return send(request(path).GET().build());
    }

    Resp call(String method, String path, String body) throws Exception {
        HttpRequest.Builder b = request(path);
        if (body != null) {
            b.header("Content-Type", "application/json"); // as the CLI sends: the agent refuses other bodies
        }
        return send(b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** Current snapshot of an allocation, straight from the engine. */
    AllocationState alloc(String id) {
        return agent.engine().allocation(id).orElseThrow();
    }

    @Override
    public void close() {
        agent.close();
    }

    /** A response: status, body and content type. */
    record Resp(int status, String body, String contentType) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + body, e);
            }
        }

        String error() {
            return json().path("error").asText();
        }
    }
}
