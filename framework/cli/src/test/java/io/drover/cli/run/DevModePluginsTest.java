package io.drover.cli.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DevModePluginsTest {
    @Test
    void rawExecIsEnabledWhenTheConfigSaysNothing() {
        assertThat(DevModePlugins.merge(Map.of())).isEqualTo(Map.of("raw_exec", Map.of("enabled", true)));
    }

    @Test
    void theConfigsPluginBlocksWinKeyByKey() {
        Map<String, Map<String, Object>> merged = DevModePlugins.merge(Map.of(
                "raw_exec", Map.of("enabled", false, "no_cgroups", true),
                "mock", Map.of("shutdown_periodic_after", true)));

        assertThat(merged).isEqualTo(Map.of(
                "raw_exec", Map.of("enabled", false, "no_cgroups", true),
                "mock", Map.of("shutdown_periodic_after", true)));
    }

    @Test
    void otherKeysOfAConfiguredRawExecBlockKeepItEnabled() {
        assertThat(DevModePlugins.merge(Map.of("raw_exec", Map.of("no_cgroups", true))).get("raw_exec"))
                .isEqualTo(Map.of("enabled", true, "no_cgroups", true));
    }
}
