package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.AgentConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class PluginDirsTest {
    private static final AgentConfig DEFAULTS = AgentConfig.defaults();

    @Test
    void theConfigsPluginDirWins() {
        AgentConfig config = new AgentConfig(null, Path.of("/opt/plugins"), "INFO", "127.0.0.1", 4747,
                DEFAULTS.client(), DEFAULTS.plugins());

        assertThat(PluginDirs.resolve(config, "/repo")).isEqualTo(Path.of("/opt/plugins"));
    }

    @Test
    void elseTheDistFolderUnderDroverHome() {
        assertThat(PluginDirs.resolve(DEFAULTS, "/repo")).isEqualTo(Path.of("/repo/plugins/dist"));
    }

    @Test
    void elseTheDistFolderUnderTheWorkingDirectory() {
        assertThat(PluginDirs.resolve(DEFAULTS, null)).isEqualTo(Path.of("plugins/dist"));
    }
}
