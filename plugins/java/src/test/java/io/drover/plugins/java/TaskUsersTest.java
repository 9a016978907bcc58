package io.drover.plugins.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.PluginConfigException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who a java task runs as, for an agent that is not root (a developer's machine), and the plugin config. Pure. */
class TaskUsersTest {
    @Test
    void anAgentThatIsNotRootRunsTasksAsItselfAndRefusesAnyOtherUser() throws Exception {
        TaskUsers users = TaskUsers.create(JavaPluginConfig.defaults(), Optional.of(1000));

        assertThat(users.resolve(null)).isEqualTo(new TaskUsers.Resolution(null, null));
        assertThat(users.resolve("root").problem()).isEqualTo(new ConfigProblem("user",
                "cannot run as \"root\": the agent runs as uid 1000, not root, so its java tasks run as itself"));
        assertThat(users.describeDefault()).isEqualTo("tasks run as the agent's user (uid 1000, not root: no user"
                + " switch)");
    }

    @Test
    void thePluginConfigKeysAndTheirTypes() throws Exception {
        assertThat(JavaPluginConfig.parse(Map.of())).isEqualTo(new JavaPluginConfig(true, "nobody", false));
        assertThat(JavaPluginConfig.parse(Map.of("default_user", "app", "allow_root", true, "enabled", false)))
                .isEqualTo(new JavaPluginConfig(false, "app", true));
        assertThatThrownBy(() -> JavaPluginConfig.parse(Map.of("allow_root", "yes")))
                .isInstanceOf(PluginConfigException.class).hasMessage("allow_root: must be true or false, found \"yes\"");
        assertThatThrownBy(() -> JavaPluginConfig.parse(Map.of("default_user", " ")))
                .isInstanceOf(PluginConfigException.class).hasMessage("default_user: must be a user name, found \" \"");
        assertThatThrownBy(() -> JavaPluginConfig.parse(Map.of("default_user", List.of())))
                .isInstanceOf(PluginConfigException.class).hasMessage("default_user: must be a string, found a list");
        assertThatThrownBy(() -> JavaPluginConfig.parse(Map.of("user", "x")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("user: unknown key (allowed: allow_root, default_ipc_mode, default_pid_mode, default_user, enabled)");
    }
}
