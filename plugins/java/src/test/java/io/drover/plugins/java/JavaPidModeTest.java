package io.drover.plugins.java;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskConfig;
import io.drover.process.Await;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TaskUser;
import io.drover.process.TestTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad's {@code pid_mode} / {@code ipc_mode} on java with real child JVMs. As root (this machine and CI) the JVM is
 * PID 1 of its own namespace by default (Nomad's java.hcl: {@code my pid is 1}), its {@code /proc} lists that
 * namespace only, and its shutdown hooks still run on the kill signal (the JVM handles TERM, so PID 1 gets it);
 * {@code "host"} keeps the host's namespaces. The keys are checked whatever the agent's user.
 */
@ExtendWith(ProcessLeakCheck.class)
class JavaPidModeTest {
    @RegisterExtension
    final JavaDrivers drivers = new JavaDrivers();

    @TempDir
    Path dir;

    private static void asRoot() {
        Assumptions.assumeTrue(TaskUser.effectiveUid().orElse(-1) == 0, "namespaces need an agent running as root");
    }

    private TaskConfig pid(String id, Map<String, Object> modes) {
        Map<String, Object> config = new HashMap<>(JavaFixture.fixture("Pid"));
        config.putAll(modes);
        return TestTasks.task(dir, id, config, Map.of());
    }

    private static List<String> run(JavaDriver d, TaskConfig task) throws Exception {
        JavaFixture.runToSuccess(d, task);
        return Files.readAllLines(task.stdoutPath());
    }

    private static String hostIpc() throws Exception {
        return "ipc " + Files.readSymbolicLink(Path.of("/proc/self/ns/ipc"));
    }

    @Test
    void asRootTheJvmIsPidOneOfItsOwnNamespacesByDefault() throws Exception {
        asRoot();
        List<String> out = run(drivers.create(Map.of()), pid("jpid/1", Map.of()));
        assertThat(out.get(0)).isEqualTo("my pid is 1");
        // the JVM alone (its threads are not processes): the host's processes are not in its /proc
        assertThat(out.get(1)).isEqualTo("procs 1");
        assertThat(out.get(2)).isNotEqualTo(hostIpc());
    }

    @Test
    void pidModeHostKeepsTheHostsNamespaces() throws Exception {
        asRoot();
        List<String> out = run(drivers.create(Map.of()), pid("jpid/2", Map.of("pid_mode", "host", "ipc_mode", "host")));
        assertThat(out.get(0)).startsWith("my pid is ").isNotEqualTo("my pid is 1");
        assertThat(Integer.parseInt(out.get(1).substring("procs ".length()))).isGreaterThan(1);
        assertThat(out.get(2)).isEqualTo(hostIpc());
    }

    @Test
    void thePluginsDefaultsApplyToATaskThatSetsNone() throws Exception {
        asRoot();
        JavaDriver d = drivers.create(Map.of("default_pid_mode", "host", "default_ipc_mode", "host"));
        assertThat(run(d, pid("jpid/3", Map.of())).get(0)).isNotEqualTo("my pid is 1");
        assertThat(run(d, pid("jpid/4", Map.of("pid_mode", "private"))).get(0)).isEqualTo("my pid is 1");
    }

    @Test
    void aJvmThatIsPidOneStillTakesItsKillSignalAndRunsItsShutdownHooks() throws Exception {
        asRoot();
        JavaDriver d = drivers.create(Map.of());
        Path shared = JavaFixture.writableByTasks(dir);
        Path ready = shared.resolve("ready");
        Path hook = shared.resolve("hook");
        TaskConfig task = TestTasks.task(dir, "jpid/5", JavaFixture.fixture("Sleeps", ready.toString(),
                hook.toString()), Map.of());
        d.start(task).toCompletableFuture().get(20, TimeUnit.SECONDS);
        Await.until("the JVM's hook is in place", java.time.Duration.ofSeconds(20), () -> Files.exists(ready));
        d.signal(task.taskId(), "SIGTERM");
        // the JVM handles TERM (its shutdown hooks), so the kernel delivers it to a PID 1: exit 143, no SIGKILL
        assertThat(d.awaitExit(task.taskId()).toCompletableFuture().get(20, TimeUnit.SECONDS))
                .isEqualTo(ExitResult.code(143));
        assertThat(Files.readString(hook)).isEqualTo("hook ran");
        d.destroy(task.taskId());
    }

    @Test
    void badModesAreOneProblemEachNamingTheKey() throws Exception {
        JavaDriver d = drivers.create(Map.of());
        Map<String, Object> config = new HashMap<>(JavaFixture.fixture("Pid"));
        config.put("pid_mode", "container");
        config.put("ipc_mode", "shareable");
        assertThat(d.validateConfig(config)).containsExactly(
                new ConfigProblem("ipc_mode", "must be one of \"private\", \"host\", found \"shareable\""),
                new ConfigProblem("pid_mode", "must be one of \"private\", \"host\", found \"container\""));
        assertThatThrownBy(() -> drivers.create(Map.of("default_ipc_mode", "x")))
                .isInstanceOf(PluginConfigException.class).hasMessageContaining("default_ipc_mode")
                .hasMessageContaining("must be one of \"private\", \"host\", found \"x\"");
    }
}
