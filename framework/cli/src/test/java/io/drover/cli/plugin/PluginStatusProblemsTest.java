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
 * Issue 12 item 9: an agent that refused its plugin_dir (owned by {@code nobody}; the tests run as root) says so
 * in {@code drover plugin status}, as a Warning line on stderr, not only in its own log.
 */
class PluginStatusProblemsTest {
    @TempDir
    Path tmp;

    @Test
    void aRefusedPluginDirIsAWarningOfPluginStatus() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setAttribute(plugins, "unix:uid", 65534);
        AgentConfig config = new AgentConfig(tmp.resolve("data"), plugins, "INFO", "127.0.0.1", 0,
                ClientConfig.defaults(), Map.of());
        try (Agent agent = Agent.start(config, () -> {})) {
            CliRun run = CliRun.of("plugin", "status", "-address", agent.address());

            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err().lines().toList()).containsExactly("Warning: plugin_dir " + plugins + " is owned by "
                    + "user nobody (uid 65534), not by the agent's user (uid 0): refusing to load plugins from it "
                    + "(anyone who can write there could run code in the agent); no drivers loaded; chown it to the "
                    + "agent's user or root");
            assertThat(run.out()).isEqualTo("No driver plugins loaded by the agent\n");
        }
    }
}
