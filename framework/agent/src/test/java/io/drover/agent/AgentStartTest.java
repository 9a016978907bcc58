package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentStartTest {
    @TempDir
    Path tmp;

    private AgentConfig config(Path dataDir, Path pluginDir, int port) {
        return new AgentConfig(dataDir, pluginDir, "INFO", "127.0.0.1", port, ClientConfig.defaults(), Map.of());
    }

    @Test
    void dataDirIsCreatedOwnerOnlyAndThePortIsExposed() throws Exception {
        Path dataDir = tmp.resolve("a/b/data");
        try (Agent agent = Agent.start(config(dataDir, null, 0), () -> {})) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir))).isEqualTo("rwx------");
            assertThat(agent.httpPort()).isPositive();
            assertThat(agent.address()).isEqualTo("http://127.0.0.1:" + agent.httpPort());
        }
    }

    @Test
    void aDataDirThatCannotBeCreatedRefusesToStartWithOneLine() throws Exception {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        assertThatThrownBy(() -> Agent.start(config(file.resolve("data"), null, 0), () -> {}))
                .isInstanceOf(AgentStartException.class)
                .hasMessageStartingWith("cannot create data_dir " + file.resolve("data"))
                .hasMessageNotContaining("\n");
        assertThatThrownBy(() -> Agent.start(config(file, null, 0), () -> {}))
                .hasMessageContaining("not a directory");
        assertThatThrownBy(() -> Agent.start(config(null, null, 0), () -> {}))
                .hasMessageContaining("data_dir is not set");
    }

    @Test
    void aPluginDirWritableByOthersIsRefusedAndNoDriverLoads() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        try (var jars = Files.list(Path.of(System.getProperty("drover.test.plugins", "target/test-plugins")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.copy(jar, plugins.resolve(jar.getFileName()));
            }
        }
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxrwxrwx"));
        try (Agent agent = Agent.start(config(tmp.resolve("data"), plugins, 0), () -> {})) {
            assertThat(DirChecks.pluginDirProblem(plugins)).hasValueSatisfying(p -> assertThat(p)
                    .contains(plugins.toString()).contains("writable by other users"));
            TestAgent.Resp r = new TestAgentClient(agent).get("/v1/plugins");
            assertThat(r.json()).isEmpty();
        }
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (Agent agent = Agent.start(config(tmp.resolve("data"), plugins, 0), () -> {})) {
            assertThat(agent.engine()).isNotNull();
            assertThat(new TestAgentClient(agent).get("/v1/plugins").json()).hasSize(1);
        }
    }

    @Test
    void aPortInUseRefusesToStartWithOneLine() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertThatThrownBy(() -> Agent.start(config(tmp.resolve("data"), null, taken.getLocalPort()), () -> {}))
                    .isInstanceOf(AgentStartException.class)
                    .hasMessageContaining("cannot serve the HTTP API on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void closeLeavesTasksAloneAndStopsAnswering() throws Exception {
        Agent agent = TestAgent.start(tmp).agent;
        String id = agent.jobs().register(batch("long", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("running", () -> agent.engine().allocation(id).orElseThrow().clientStatus().wireName()
                .equals("running"));
        int port = agent.httpPort();
        agent.close();
        agent.close(); // idempotent
        assertThat(agent.engine().allocation(id).orElseThrow().terminal()).isFalse(); // not killed
        assertThatThrownBy(() -> new java.net.Socket("127.0.0.1", port).close())
                .isInstanceOf(java.net.ConnectException.class);
        Await.until("the agent's threads to end", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("drover-http-") || t.getName().startsWith("drover-log-follow-")
                        || t.getName().startsWith("drover-engine-")));
    }

    @Test
    void theTokenNeverShowsInTheConfigsToString() {
        AgentConfig c = new AgentConfig(tmp, null, "INFO", "127.0.0.1", 0, ClientConfig.defaults(), Map.of(),
                "very-secret");
        assertThat(c.toString()).doesNotContain("very-secret").contains("<redacted>");
        assertThat(AgentConfig.defaults().aclToken()).isNull();
    }

    /** A bare client for an agent started without {@link TestAgent}. */
    private record TestAgentClient(Agent agent) {
        TestAgent.Resp get(String path) throws Exception {
            var r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(agent.address() + path)).version(java.net.http.HttpClient.Version.HTTP_1_1)
                    .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            return new TestAgent.Resp(r.statusCode(), r.body(), "");
        }
    }
}
