package io.drover.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AgentConfigParserTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private static String contractConfig() throws IOException {
        try (InputStream in = AgentConfigParserTest.class.getResourceAsStream("/config/contract_agent.hcl")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theContractsConfigParses() throws Exception {
        Files.createDirectory(dir.resolve("plugins")); // a plugin_dir the file sets must exist
        AgentConfig config = AgentConfigParser.parse(write("agent.hcl", contractConfig()));

        assertThat(config.dataDir()).isEqualTo(Path.of("/var/lib/drover"));
        assertThat(config.pluginDir()).as("relative to the config's folder").isEqualTo(dir.resolve("plugins"));
        assertThat(config.logLevel()).isEqualTo("INFO");
        assertThat(config.bindAddr()).isEqualTo("127.0.0.1");
        assertThat(config.httpPort()).isEqualTo(4747);
        assertThat(config.client()).isEqualTo(new ClientConfig(Duration.ofMinutes(1), 50, 80, 70, 2,
                GcKillPolicy.PRESERVE_STATES, Duration.ofSeconds(30), Duration.ofHours(24)));
        assertThat(config.plugins()).isEqualTo(Map.of("raw_exec", Map.of("enabled", true)));
        assertThat(config.aclToken()).isNull();
    }

    @Test
    void everyKeyAndSeveralPluginsInHcl() throws Exception {
        AgentConfig config = AgentConfigParser.parse(write("agent.hcl", """
                data_dir  = "state"
                log_level = "debug"
                client {
                  gc_max_allocs            = 1
                  gc_inode_usage_threshold = 90
                  gc_kill_policy           = "kill_poststop"
                  record_retention         = "1h"
                  driver_start_timeout     = "90s"
                  max_tasks_per_job        = 500
                  max_tasks                = 1500
                  max_tasks_per_group      = 50
                }
                plugin "raw_exec" {
                  config {
                    enabled = true
                  }
                }
                plugin "java" {
                  config {
                    jvm_options = ["-Xmx64m"]
                    limits { cpu = 2 }
                  }
                }
                plugin "mock" {}
                acl { token = "s3cret-0123456789" }
                """));

        assertThat(config.dataDir()).isEqualTo(dir.resolve("state"));
        assertThat(config.pluginDir()).isNull();
        assertThat(config.logLevel()).isEqualTo("DEBUG");
        assertThat(config.client().gcMaxAllocs()).isEqualTo(1);
        assertThat(config.client().gcInodeUsageThreshold()).isEqualTo(90);
        assertThat(config.client().gcKillPolicy()).isEqualTo(GcKillPolicy.KILL_POSTSTOP);
        assertThat(config.client().recordRetention()).isEqualTo(Duration.ofHours(1));
        assertThat(config.client().driverStartTimeout()).isEqualTo(Duration.ofSeconds(90));
        assertThat(config.client().taskLimits()).isEqualTo(new TaskLimits(500, 1500, 50));
        assertThat(config.client().gcInterval()).as("default kept").isEqualTo(Duration.ofMinutes(1));
        assertThat(config.plugins()).containsOnlyKeys("raw_exec", "java", "mock");
        assertThat(config.plugins().get("java"))
                .isEqualTo(Map.of("jvm_options", List.of("-Xmx64m"), "limits", Map.of("cpu", 2L)));
        assertThat(config.plugins().get("mock")).isEmpty();
        assertThat(config.aclToken()).isEqualTo("s3cret-0123456789");
    }

    @Test
    void jsonConfigIsTheSameAsHcl() throws Exception {
        Files.createDirectory(dir.resolve("plugins"));
        AgentConfig hcl = AgentConfigParser.parse(write("agent.hcl", contractConfig()));
        AgentConfig json = AgentConfigParser.parse(write("agent.json", """
                {
                  "data_dir": "/var/lib/drover",
                  "plugin_dir": "./plugins",
                  "log_level": "INFO",
                  "bind_addr": "127.0.0.1",
                  "ports": {"http": 4747},
                  "client": {
                    "gc_interval": "1m",
                    "gc_max_allocs": 50,
                    "gc_disk_usage_threshold": 80,
                    "gc_parallel_destroys": 2,
                    "gc_kill_policy": "preserve_states",
                    "max_kill_timeout": "30s",
                    "record_retention": "24h",
                    "driver_start_timeout": "1m"
                  },
                  "plugin": {"raw_exec": {"config": {"enabled": true}}}
                }
                """));
        assertThat(json).usingRecursiveComparison().ignoringFields("source").isEqualTo(hcl); // file and lines differ

        AgentConfig listForm = AgentConfigParser.parse(write("list.json",
                "{\"plugin\": [{\"raw_exec\": {\"config\": {\"enabled\": true}}}, {\"mock\": {}}]}"));
        assertThat(listForm.plugins()).containsOnlyKeys("raw_exec", "mock");
        assertThat(AgentConfigParser.parse(write("empty.json", "{}"))).usingRecursiveComparison()
                .ignoringFields("source").isEqualTo(AgentConfig.defaults());
    }

    static Stream<Arguments> badConfigs() {
        return Stream.of(
                Arguments.of("a.hcl", "log_level = \"INFO\"\nclient {\n  gc_intervall = \"1m\"\n}\n", 3,
                        "a.hcl:3: client > gc_intervall: unknown key (allowed: gc_interval, gc_max_allocs,"),
                Arguments.of("a.hcl", "server {\n  enabled = true\n}\n", 1,
                        "a.hcl:1: server: unknown key (allowed: data_dir, plugin_dir, log_level,"),
                Arguments.of("a.hcl", "client {\n  gc_interval = \"1 minute\"\n}\n", 2,
                        "a.hcl:2: client > gc_interval: unknown unit"),
                Arguments.of("a.hcl", "client {\n  max_kill_timeout = \"0s\"\n}\n", 2,
                        "a.hcl:2: client > max_kill_timeout: must be positive"),
                Arguments.of("a.hcl", "client {\n  driver_start_timeout = \"0s\"\n}\n", 2,
                        "a.hcl:2: client > driver_start_timeout: must be positive"),
                Arguments.of("a.hcl", "client {\n  driver_start_timeout = \"soon\"\n}\n", 2,
                        "a.hcl:2: client > driver_start_timeout:"),
                Arguments.of("a.hcl", "client {\n\n  gc_kill_policy = \"kill_all\"\n}\n", 3,
                        "a.hcl:3: client > gc_kill_policy: must be preserve_states or kill_poststop, found \"kill_all\""),
                Arguments.of("a.hcl", "client {\n  gc_disk_usage_threshold = 180\n}\n", 2,
                        "a.hcl:2: client > gc_disk_usage_threshold: must be at most 100 (got 180)"),
                Arguments.of("a.hcl", "log_level = \"LOUD\"\n", 1, "a.hcl:1: log_level: must be one of TRACE, DEBUG,"),
                Arguments.of("a.hcl", "ports {\n  http = 70000\n}\n", 2, "a.hcl:2: ports > http: must be at most 65535"),
                Arguments.of("a.hcl", "ports {\n  http = \"4747\"\n}\n", 2,
                        "a.hcl:2: ports > http: must be a whole number, found a string"),
                Arguments.of("a.hcl", "log_level = \"INFO\"\nbind_addr = \"not an addr!!\"\n", 2,
                        "a.hcl:2: bind_addr: not an IP address or host name: \"not an addr!!\""),
                Arguments.of("a.hcl", "bind_addr = \"nonexistent.invalid\"\n", 1,
                        "a.hcl:1: bind_addr: host name \"nonexistent.invalid\" does not resolve"),
                Arguments.of("a.hcl", "bind_addr = \"127.0.0.256\"\n", 1,
                        "a.hcl:1: bind_addr: not a valid IPv4 address: \"127.0.0.256\""),
                Arguments.of("a.hcl", "bind_addr = \"::1::2\"\n", 1,
                        "a.hcl:1: bind_addr: not a valid IPv6 address: \"::1::2\""),
                Arguments.of("a.hcl", "data_dir = \"d\"\nplugin_dir = \"/nonexistent/drover-plugins\"\n", 2,
                        "a.hcl:2: plugin_dir: /nonexistent/drover-plugins does not exist"),
                Arguments.of("a.json", "{\n  \"bind_addr\": \"-bad-\"\n}", 2,
                        "a.json:2: bind_addr: not an IP address or host name: \"-bad-\""),
                Arguments.of("a.hcl", "ports {\n  rpc = 4647\n}\n", 2, "a.hcl:2: ports > rpc: unknown key (allowed: http)"),
                Arguments.of("a.hcl", "plugin \"a\" {\n}\nplugin \"a\" {\n}\n", 3,
                        "a.hcl:3: plugin \"a\": plugin configured more than once (first at line 1)"),
                Arguments.of("a.hcl", "plugin {\n}\n", 1, "a.hcl:1: plugin: takes exactly one label"),
                Arguments.of("a.hcl", "plugin \"a\" {\n  args = []\n}\n", 2,
                        "a.hcl:2: plugin \"a\" > args: unknown key (allowed: config)"),
                Arguments.of("a.hcl", "data_dir = 5\n", 1, "a.hcl:1: data_dir: must be a string, found an integer"),
                Arguments.of("a.hcl", "acl {\n  token = true\n}\n", 2, "a.hcl:2: acl > token: must be a string"),
                // issue 12 #15: an empty token disabled the check, a blank one locked everyone out, a short one
                // is guessed in a few requests
                Arguments.of("a.hcl", "acl {\n  token = \"\"\n}\n", 2,
                        "a.hcl:2: acl > token: must not be empty (to run without a token, remove the acl block)"),
                Arguments.of("a.hcl", "acl {\n  token = \" \"\n}\n", 2, "a.hcl:2: acl > token: must not be blank"),
                Arguments.of("a.hcl", "acl {\n  token = \"x\"\n}\n", 2,
                        "a.hcl:2: acl > token: must be at least 16 characters, found 1 (generate one with uuidgen)"),
                Arguments.of("a.json", "{\n  \"acl\": {\"token\": \"0123456789abcde\"}\n}", 2,
                        "a.json:2: acl > token: must be at least 16 characters, found 15"),
                Arguments.of("a.hcl", "acl {\n  token = \"0123456789 abcdef\"\n}\n", 2,
                        "a.hcl:2: acl > token: must not contain spaces or control characters"),
                Arguments.of("a.hcl", "data_dir = \"x\n", 1, "a.hcl:1: unterminated string"),
                Arguments.of("a.hcl", "http {\n  allowed_hosts = [\"ok.example\", \"evil example\"]\n}\n", 2,
                        "a.hcl:2: http > allowed_hosts: \"evil example\" is not a host name or address"),
                Arguments.of("a.hcl", "http {\n  allowed_hosts = \"one\"\n}\n", 2,
                        "a.hcl:2: http > allowed_hosts: must be a list of strings"),
                Arguments.of("a.hcl", "http {\n  max_conns = 2\n}\n", 2, "a.hcl:2: http > max_conns: must be at least 16"),
                Arguments.of("a.hcl", "http {\n  header_timeout = \"500ms\"\n}\n", 2,
                        "a.hcl:2: http > header_timeout: must be at least 1s, found 500ms"),
                Arguments.of("a.hcl", "http {\n  idle = \"5s\"\n}\n", 2, "a.hcl:2: http > idle: unknown key"),
                Arguments.of("a.json", "{\n  \"client\": {\"gc_max_allocs\": 0}\n}", 2,
                        "a.json:2: client > gc_max_allocs: must be at least 1 (got 0)"),
                Arguments.of("a.hcl", "client {\n  max_tasks = 0\n}\n", 2,
                        "a.hcl:2: client > max_tasks: must be at least 1 (got 0)"),
                Arguments.of("a.hcl", "client {\n  max_tasks_per_job = \"many\"\n}\n", 2,
                        "a.hcl:2: client > max_tasks_per_job: must be a whole number, found a string"),
                Arguments.of("a.hcl", "client {\n  max_tasks = 10\n  max_tasks_per_job = 20\n}\n", 3,
                        "a.hcl:3: client > max_tasks_per_job: must not exceed max_tasks (20 > 10)"),
                Arguments.of("a.json", "{\n  \"DataDir\": \"/x\"\n}", 2, "a.json:2: DataDir: unknown key"),
                Arguments.of("a.json", "{\n  \"plugin\": 3\n}", 2, "a.json:2: plugin: must be an object of plugins"),
                Arguments.of("a.hcl", "", 0, "a.hcl: empty file"));
    }

    @ParameterizedTest(name = "{3}")
    @MethodSource("badConfigs")
    void badConfigsNameTheKeyAndLine(String name, String text, int line, String expected) throws Exception {
        Path file = write(name, text);
        Throwable thrown = catchThrowable(() -> AgentConfigParser.parse(file));

        assertThat(thrown).isExactlyInstanceOf(ConfigException.class);
        ConfigException e = (ConfigException) thrown;
        assertThat(e.getMessage()).isEqualTo(file + e.getMessage().substring(file.toString().length()))
                .contains(expected.substring(name.length()));
        assertThat(e.getMessage()).startsWith(file.toString() + (line > 0 ? ":" + line + ": " : ": "));
        assertThat(e.line()).isEqualTo(line);
    }

    @Test
    void nomadsNodeKeysDescribeThisNode() throws Exception {
        AgentConfig c = AgentConfigParser.parse(write("n.hcl", """
                name       = "edge-1"
                datacenter = "eu-west"
                client {
                  node_class = "gpu"
                  node_pool  = "batch"
                  meta {
                    rack = "r7"
                  }
                }
                """));
        assertThat(c.client().node()).isEqualTo(new NodeConfig("edge-1", "eu-west", "gpu", "batch",
                java.util.Map.of("rack", "r7")));
        assertThat(AgentConfigParser.parse(write("d.hcl", "log_level = \"INFO\"\n")).client().node())
                .isEqualTo(NodeConfig.DEFAULTS);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentConfigParser.parse(write("e.hcl",
                "datacenter = \"\"\n"))).hasMessageContaining("e.hcl:1: datacenter: must not be empty");
    }

    @Test
    void allowedHostsAreReadWithOrWithoutAPort() throws Exception {
        AgentConfig c = AgentConfigParser.parse(write("h.hcl",
                "http {\n  allowed_hosts = [\"drover.example.com\", \"10.0.0.5:4747\", \"[::1]:4747\"]\n}\n"));
        assertThat(c.http().allowedHosts()).containsExactly("drover.example.com", "10.0.0.5:4747", "[::1]:4747");
        assertThat(AgentConfigParser.parse(write("n.hcl", "log_level = \"INFO\"\n")).http().allowedHosts()).isEmpty();
        AgentConfig limits = AgentConfigParser.parse(write("l.hcl",
                "http {\n  max_conns = 64\n  header_timeout = \"3s\"\n  idle_timeout = \"1m\"\n}\n"));
        assertThat(limits.http()).isEqualTo(new HttpConfig(List.of(), 64, Duration.ofSeconds(3), Duration.ofMinutes(1)));
        assertThat(c.http().maxConns()).isEqualTo(1024);
        assertThat(c.http().headerTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.http().idleTimeout()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aConfigBuiltInCodeRefusesAnEmptyOrShortTokenToo() {
        for (String bad : List.of("", "   ", "short")) {
            assertThatThrownBy(() -> new AgentConfig(null, null, "INFO", "127.0.0.1", 0, ClientConfig.defaults(),
                    Map.of(), bad)).isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("acl > token: ");
        }
    }

    @Test
    void bindAddrTakesIpLiteralsAndHostNamesThatResolve() throws Exception {
        for (String addr : List.of("127.0.0.1", "0.0.0.0", "::1", "::", "localhost")) {
            assertThat(AgentConfigParser.parse(write("b.hcl", "bind_addr = \"" + addr + "\"\n")).bindAddr())
                    .isEqualTo(addr);
        }
    }

    @Test
    void aPluginDirThatIsAFileIsRefusedButAnUnsetOneIsNotChecked() throws Exception {
        Path file = write("plugins", "not a folder");
        Path config = write("p.hcl", "log_level = \"INFO\"\nplugin_dir = \"plugins\"\n");
        assertThat(catchThrowable(() -> AgentConfigParser.parse(config))).isExactlyInstanceOf(ConfigException.class)
                .hasMessage(config + ":2: plugin_dir: " + file + " is not a directory");
        assertThat(AgentConfigParser.parse(write("q.hcl", "log_level = \"INFO\"\n")).pluginDir()).isNull();
    }

    @Test
    void aMissingFileIsAConfigException() {
        Path missing = dir.resolve("nope.hcl");
        assertThat(catchThrowable(() -> AgentConfigParser.parse(missing)))
                .isExactlyInstanceOf(ConfigException.class).hasMessageStartingWith(missing + ": cannot read the file");
    }
}
