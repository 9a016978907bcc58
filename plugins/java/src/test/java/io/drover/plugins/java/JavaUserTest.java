package io.drover.plugins.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskConfig;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TaskUser;
import io.drover.process.TestTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 5: the java driver must not run tasks as root. Real child JVMs report the uid they run as.
 * Needs an agent running as root (this machine and CI; skipped elsewhere with one line), since only root can
 * switch users; {@link TaskUsersTest} covers the agent that is not root.
 */
@ExtendWith(ProcessLeakCheck.class)
class JavaUserTest {
    private static final String ROOT_REFUSED = "\"root\" is root (uid 0): running java tasks as root needs"
            + " plugin \"java\" { config { allow_root = true } }";
    @RegisterExtension
    final JavaDrivers drivers = new JavaDrivers();

    @TempDir
    Path dir;

    @BeforeEach
    void asRoot() {
        Assumptions.assumeTrue(TaskUser.effectiveUid().orElse(-1) == 0, "switching users needs an agent running as root");
    }

    private TaskConfig whoami(String id, String user) {
        Map<String, Object> config = new HashMap<>(JavaFixture.fixture("Whoami"));
        if (user != null) {
            config.put("user", user);
        }
        return TestTasks.task(dir, id, config, Map.of());
    }

    private static String run(JavaDriver d, TaskConfig task) throws Exception {
        JavaFixture.runToSuccess(d, task);
        return Files.readString(task.stdoutPath());
    }

    @Test
    void byDefaultTheChildJvmRunsAsNobodyAndMayWriteItsLocalDir() throws Exception {
        TaskUser nobody = TaskUser.lookup("nobody").orElseThrow();
        TaskConfig task = whoami("java/nobody", null);

        assertThat(run(drivers.create(Map.of()), task)).isEqualTo("uid=" + nobody.uid() + " gid=" + nobody.gid() + "\n");

        assertThat(task.taskDir().resolve("local/whoami")).hasContent(nobody.uid() + "\n");
        assertThat(Files.getAttribute(task.taskDir().resolve("local"), "unix:uid")).isEqualTo(nobody.uid());
        assertThat(Files.getAttribute(task.taskDir(), "unix:uid")).as("the task dir stays root's").isEqualTo(0);
    }

    @Test
    void aTaskAskingForRootIsRefusedInOneLineNamingTheKeyAndNothingRuns() throws Exception {
        JavaDriver d = drivers.create(Map.of());
        TaskConfig task = whoami("java/root", "root");

        assertThat(d.validateConfig(task.config())).containsExactly(new ConfigProblem("user", ROOT_REFUSED));
        assertThat(d.start(task).toCompletableFuture()).failsWithin(java.time.Duration.ofSeconds(10))
                .withThrowableOfType(ExecutionException.class).havingCause().isInstanceOf(DriverException.class)
                .withMessage("invalid java config: user: " + ROOT_REFUSED);
        assertThat(task.stdoutPath()).doesNotExist();
    }

    @Test
    void rootIsAllowedOnlyWhenThePluginConfigSaysSo() throws Exception {
        JavaDriver d = drivers.create(Map.of("allow_root", true));

        assertThat(d.validateConfig(whoami("java/v", "root").config())).isEmpty();
        assertThat(run(d, whoami("java/allowed", "root"))).isEqualTo("uid=0 gid=0\n");
    }

    @Test
    void anotherUserNamedByTheTaskIsTheOneItRunsAs() throws Exception {
        TaskUser daemon = TaskUser.lookup("daemon").orElse(null);
        Assumptions.assumeTrue(daemon != null && !daemon.isRoot(), "no user daemon on this machine");

        assertThat(run(drivers.create(Map.of()), whoami("java/daemon", "daemon")))
                .isEqualTo("uid=" + daemon.uid() + " gid=" + daemon.gid() + "\n");
    }

    @Test
    void anUnknownUserIsRefusedNamingTheKey() throws Exception {
        JavaDriver d = drivers.create(Map.of());

        assertThat(d.validateConfig(whoami("java/u", "no-such-user-x").config())).containsExactly(
                new ConfigProblem("user", "no such user \"no-such-user-x\" on this machine (/etc/passwd)"));
    }

    @Test
    void aRootDefaultUserWithoutAllowRootStopsTheAgentNamingTheKey() {
        assertThatThrownBy(() -> drivers.create(Map.of("default_user", "root"))).isInstanceOf(PluginConfigException.class)
                .hasMessage("default_user: " + ROOT_REFUSED);
        assertThatThrownBy(() -> drivers.create(Map.of("default_user", "no-such-user-x")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessage("default_user: no such user \"no-such-user-x\" on this machine (/etc/passwd)");
    }
}
