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
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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
            // as root, others may pass through (its java tasks run as nobody and read host paths under it)
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)))
                    .isEqualTo(DirChecks.root() ? "rwx--x--x" : "rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve(Agent.STATE_DIR))))
                    .isEqualTo("rwx------");
            if (DirChecks.root()) { // and the allocation ids are not listed to others
                assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("alloc"))))
                        .isEqualTo("rwx--x--x");
            }
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
    void aGroupWritablePluginDirIsRefusedTooWithAWarningNamingIt() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("shared-plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwxrwxr-x"));
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (var captured = LogCapture.of(Agent.class, warnings);
                Agent agent = Agent.start(config(tmp.resolve("data"), plugins, 0), () -> {})) {
            assertThat(agent.drivers()).isEmpty();
            assertThat(agent.engine()).isNotNull(); // the agent runs, with no drivers
        }
        assertThat(warnings).anySatisfy(w -> assertThat(w).startsWith("WARN plugin_dir " + plugins
                + " is writable by other users (rwxrwxr-x): refusing to load plugins from it"));
    }

    private static String testPlugins() {
        return Path.of(System.getProperty("drover.test.plugins", "target/test-plugins")).toAbsolutePath().toString();
    }

    /** An agent config on the test plugins whose {@code plugin "NAME"} block holds one line, at line 8. */
    private Path pluginBlockConfig(String plugin, String configLine) throws java.io.IOException {
        return Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                ports {
                  http = 0
                }
                plugin "%s" {
                  config {
                    %s
                  }
                }
                """.formatted(tmp.resolve("data"), testPlugins(), plugin, configLine));
    }

    @Test
    void aPluginBlockItsDriverRefusesIsAConfigErrorAndNothingStarts() throws Exception {
        Path file = pluginBlockConfig("mock", "bogus = true");
        AgentConfig parsed = io.drover.core.config.AgentConfigParser.parse(file);

        assertThatThrownBy(() -> Agent.start(parsed, () -> {}))
                .isInstanceOf(AgentStartException.class)
                .hasMessage(file + ":8: plugin \"mock\" > config > bogus: unknown key (this block takes no keys)");
        Await.until("no agent thread left", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.getName().startsWith("drover-http-") || t.getName().startsWith("drover-engine-")));
    }

    @Test
    void aPluginBlockNamingNoLoadedDriverIsOneWarningAndTheAgentStarts() throws Exception {
        Path file = pluginBlockConfig("nosuch", "enabled = true");
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (var captured = LogCapture.of(Agent.class, warnings);
                Agent agent = Agent.start(io.drover.core.config.AgentConfigParser.parse(file), () -> {})) {
            assertThat(agent.drivers()).extracting(d -> d.name()).containsExactly("mock");
        }
        assertThat(warnings.stream().filter(w -> w.startsWith("WARN"))).containsExactly("WARN " + file
                + ":6: plugin \"nosuch\": no driver \"nosuch\" is loaded from " + testPlugins()
                + "; the block is ignored");
    }

    @Test
    void anExistingDataDirOpenToOthersIsKeptAsItIsWithAWarning() throws Exception {
        Path dataDir = Files.createDirectories(tmp.resolve("open-data"));
        Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> warnings = new CopyOnWriteArrayList<>();
        try (var captured = LogCapture.of(Agent.class, warnings);
                Agent agent = Agent.start(config(dataDir, null, 0), () -> {})) {
            assertThat(agent.dataDir()).isEqualTo(dataDir);
        }
        assertThat(warnings).contains("WARN data_dir " + dataDir + " is open to other users (rwxr-xr-x); chmod "
                + (DirChecks.root() ? "711" : "700") + " it");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir))).isEqualTo("rwxr-xr-x");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve(Agent.STATE_DIR))))
                .isEqualTo("rwx------");
    }

    @Test
    void withoutBindAddrTheApiListensOnLoopbackOnly() throws Exception {
        Path file = Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir = "%s"
                ports {
                  http = 0
                }
                """.formatted(tmp.resolve("data")));
        AgentConfig parsed = io.drover.core.config.AgentConfigParser.parse(file);
        assertThat(parsed.bindAddr()).isEqualTo("127.0.0.1");
        assertThat(parsed.aclToken()).isNull();
        try (Agent agent = Agent.start(parsed, () -> {})) {
            assertThat(agent.address()).startsWith("http://127.0.0.1:");
            java.net.InetAddress external = java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())
                    .stream().flatMap(i -> java.util.Collections.list(i.getInetAddresses()).stream())
                    .filter(a -> !a.isLoopbackAddress() && a instanceof java.net.Inet4Address).findFirst().orElse(null);
            if (external != null) { // not reachable on the machine's other addresses
                assertThatThrownBy(() -> new java.net.Socket(external, agent.httpPort()).close())
                        .isInstanceOf(java.net.ConnectException.class);
            }
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
                "very-secret-0123456789");
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
