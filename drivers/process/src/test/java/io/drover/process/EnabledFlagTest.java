package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plugin block of raw_exec, exec and java: {@code enabled} with the driver's default, nothing else. */
class EnabledFlagTest {
    @Test
    void theDriversDefaultUnlessTheBlockSays() throws Exception {
        assertThat(EnabledFlag.parse(Map.of(), false)).isFalse();
        assertThat(EnabledFlag.parse(Map.of(), true)).isTrue();
        assertThat(EnabledFlag.parse(Map.of("enabled", true), false)).isTrue();
        assertThat(EnabledFlag.parse(Map.of("enabled", false), true)).isFalse();
    }

    @Test
    void aBadValueOrAnUnknownKeyIsAConfigErrorNamingIt() {
        assertThatThrownBy(() -> EnabledFlag.parse(Map.of("enabled", "yes"), true))
                .isInstanceOf(PluginConfigException.class)
                .extracting(e -> ((PluginConfigException) e).problem())
                .isEqualTo(new ConfigProblem("enabled", "must be true or false, found \"yes\""));
        assertThatThrownBy(() -> EnabledFlag.parse(Map.of("enabled", 1L), true))
                .isInstanceOf(PluginConfigException.class)
                .extracting(e -> ((PluginConfigException) e).problem())
                .isEqualTo(new ConfigProblem("enabled", "must be true or false, found 1"));
        assertThatThrownBy(() -> EnabledFlag.parse(Map.of("enabeld", true, "zzz", 1L), true))
                .isInstanceOf(PluginConfigException.class)
                .extracting(e -> ((PluginConfigException) e).problem())
                .isEqualTo(new ConfigProblem("enabeld", "unknown key (allowed: enabled)"));
    }
}
