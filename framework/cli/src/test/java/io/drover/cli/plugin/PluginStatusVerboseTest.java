package io.drover.cli.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.agent.Agent;
import io.drover.cli.CliRun;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: {@code drover plugin status -verbose} shows each driver's declared config schemas, the same lines from
 * a local plugin_dir ({@code -config}) and from a running agent ({@code GET /v1/plugins}); the real mock JAR.
 */
class PluginStatusVerboseTest {
    private static final Path PLUGINS = Path.of(System.getProperty("drover.test.plugins"));

    @TempDir
    Path tmp;

    @Test
    void verboseShowsTheSchemasLocallyAndThroughTheAgentAlike() throws Exception {
        Path file = Files.writeString(tmp.resolve("agent.hcl"), "data_dir = \"" + tmp.resolve("local") + "\"\n"
                + "plugin_dir = \"" + PLUGINS + "\"\n");
        CliRun local = CliRun.of("plugin", "status", "-config", file.toString(), "-verbose");
        assertThat(local.exitCode()).as(local.err()).isZero();
        assertThat(local.out()).contains("""

                Driver "mock" task config:
                  run_for  duration  how long the task runs before it exits by itself
                  exit_code  int  the exit code when it exits by itself
                """).contains("""
                Driver "mock" plugin config: takes no keys
                """);

        AgentConfig config = new AgentConfig(tmp.resolve("data"), PLUGINS, "INFO", "127.0.0.1", 0,
                ClientConfig.defaults(), Map.of());
        try (Agent agent = Agent.start(config, () -> {})) {
            CliRun remote = CliRun.of("plugin", "status", "-address", agent.address(), "-verbose");
            assertThat(remote.exitCode()).as(remote.err()).isZero();
            String schemas = local.out().substring(local.out().indexOf("\nDriver \"mock\""));
            assertThat(remote.out()).endsWith(schemas);

            CliRun plain = CliRun.of("plugin", "status", "-address", agent.address());
            assertThat(plain.out()).doesNotContain("task config");
        }
    }
}
