package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.testing.PluginJar;
import io.drover.core.testing.ZipBomb;
import io.drover.agent.faulty.FaultyDriver;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9 replayed against a real agent (running as root, as the tests do): its plugin_dir holds the
 * mock plugin, the attack's zip bomb (2 MB whose {@code META-INF/extensions.idx} inflates to 2.2 GB: the agent
 * died of an OutOfMemoryError at start) and a JAR anyone may write. The agent starts, serves the mock driver,
 * and each bad JAR is one line, logged and served by {@code GET /v1/plugins/problems}. A plugin_dir owned by
 * {@code nobody} loads nothing, and says so there too.
 */
class PluginTrustAgentTest {
    @TempDir
    Path tmp;

    private final HttpClient http = HttpClient.newHttpClient();

    private AgentConfig config(Path pluginDir) {
        return new AgentConfig(tmp.resolve("data"), pluginDir, "INFO", "127.0.0.1", 0, ClientConfig.defaults(),
                Map.of());
    }

    private Path pluginDirWithMock() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (var jars = Files.list(Path.of(System.getProperty("drover.test.plugins", "target/test-plugins")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.copy(jar, plugins.resolve(jar.getFileName()));
            }
        }
        return plugins;
    }

    private JsonNode get(Agent agent, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(agent.address() + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return TestAgent.JSON.readTree(r.body());
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void aZipBombAndAWorldWritableJarAreSkippedWithALineEachAndTheAgentServes() throws Exception {
        Path plugins = pluginDirWithMock();
        Path bomb = ZipBomb.plugin("bomb").inflatingTo(2_200L << 20).writeTo(plugins.resolve("bomb.jar"));
        Path open = PluginJar.plugin("faulty-plugin").classesOf(FaultyDriver.class).extension(FaultyDriver.class)
                .writeTo(plugins.resolve("open.jar"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-rw-rw-"));

        try (Agent agent = Agent.start(config(plugins), () -> {})) {
            assertThat(agent.drivers()).extracting(d -> d.name()).containsExactly("mock");
            assertThat(agent.pluginProblems()).containsExactly(
                    bomb + ": too large to load: META-INF/extensions.idx declares 2200 MiB once inflated (at most "
                            + "256 MiB per entry); skipped",
                    open + ": writable by other users (rw-rw-rw-): another user could change the code the agent "
                            + "would run; skipped");
            assertThat(texts(get(agent, "/v1/plugins"))).hasSize(1);
            assertThat(texts(get(agent, "/v1/plugins/problems").path("Problems")))
                    .isEqualTo(agent.pluginProblems());
        }
        assertThat(ProcessHandle.current().children().toList()).as("no process left").isEmpty();
    }

    @Test
    void aPluginDirOwnedByNobodyLoadsNothingAndTheApiSaysWhy() throws Exception {
        Path plugins = pluginDirWithMock();
        Files.setAttribute(plugins, "unix:uid", 65534);
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (var captured = LogCapture.of(Agent.class, warnings);
                Agent agent = Agent.start(config(plugins), () -> {})) {
            assertThat(agent.drivers()).isEmpty();
            String line = "plugin_dir " + plugins + " is owned by user nobody (uid 65534), not by the agent's user "
                    + "(uid 0): refusing to load plugins from it (anyone who can write there could run code in the "
                    + "agent); no drivers loaded; chown it to the agent's user or root";
            assertThat(agent.pluginProblems()).containsExactly(line);
            assertThat(get(agent, "/v1/plugins")).isEmpty();
            assertThat(texts(get(agent, "/v1/plugins/problems").path("Problems"))).containsExactly(line);
            assertThat(warnings).contains("WARN " + line);
        }
    }
}
