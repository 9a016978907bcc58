package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskConfig;
import io.drover.process.CommandConfig;
import io.drover.process.TestTasks;
import io.drover.process.WallTimers;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exec driver's config, plugin config, health lines and path rewriting: no process, no root needed. */
class ExecConfigTest {
    @TempDir
    Path dir;

    @Test
    void validatesTheTaskConfigOneProblemPerKey() {
        ExecDriver driver = new ExecDriver();
        assertThat(driver.validateConfig(Map.of("command", "echo", "args", List.of("a"), "work_dir", "/local")))
                .isEmpty();
        assertThat(driver.validateConfig(Map.of())).containsExactly(new ConfigProblem("command", "is required"));
        assertThat(driver.validateConfig(Map.of("command", "", "args", "a", "work_dir", "local",
                "comand", "x", "pid_mode", "shared", "ipc_mode", "host")))
                .containsExactly(
                        new ConfigProblem("args", "must be a list of strings, found \"a\""),
                        new ConfigProblem("comand", "unknown key for the exec driver (allowed: command, args, work_dir,"
                                + " pid_mode, ipc_mode)"),
                        new ConfigProblem("command", "must be a non-empty string"),
                        new ConfigProblem("pid_mode", "must be one of \"private\", \"host\", found \"shared\""),
                        new ConfigProblem("work_dir", "must be an absolute path inside the task's chroot (\"/local\")"));
        assertThat(CommandConfig.parse("exec", Map.of("command", "x"), ExecDriver.WORK_DIR).workDir()).isEqualTo("/");
        assertThatThrownBy(() -> CommandConfig.parse("exec", Map.of("args", List.of()), ExecDriver.WORK_DIR))
                .hasMessage("invalid exec config: command: is required");
    }

    @Test
    void pluginConfigIsOnByDefaultAndRefusesUnknownKeysAndBadValues() throws Exception {
        assertThat(ExecPluginConfig.parse(Map.of()).enabled()).isTrue();
        assertThat(ExecPluginConfig.parse(Map.of("enabled", false)).enabled()).isFalse();
        // the block's rules are EnabledFlag's (EnabledFlagTest); the driver refuses a bad block at init
        assertThatThrownBy(() -> new ExecDriver().init(new DriverContext(Map.of("enabled", "yes"), new WallTimers(),
                "0.1.0"))).isInstanceOf(PluginConfigException.class);
    }

    @Test
    void aDisabledDriverIsUnhealthyAndFailsStartsWithTheSameLine() throws Exception {
        ExecDriver off = new ExecDriver(() -> {
            throw new AssertionError("a disabled driver checks nothing");
        });
        off.init(new DriverContext(Map.of("enabled", false), new WallTimers(), "0.1.0"));
        String line = "the exec driver is disabled by the agent config (plugin \"exec\" { config { enabled = false } })";
        assertThat(off.health()).isEqualTo(DriverHealth.unhealthy(line));
        assertThat(startFailure(off)).hasMessage(line);
    }

    @Test
    void withoutRootTheDriverIsUnhealthyAndAJobFailsWithOneClearLine() throws Exception {
        Chroot.Result notRoot = Chroot.detect(Optional.of(1000));
        assertThat(notRoot.chroot()).isNull();
        String line = "exec: needs root (uid 0) and unshare, mount, chroot on PATH (the agent runs as uid 1000)";
        assertThat(notRoot.problem()).isEqualTo(line);

        ExecDriver d = new ExecDriver(() -> notRoot);
        d.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        assertThat(d.health()).isEqualTo(DriverHealth.unhealthy(line));
        DriverException e = startFailure(d);
        assertThat(e).hasMessage(line);
        assertThat(e.recoverable()).isFalse();
        assertThat(e.getCause()).isNull();
        d.close();
    }

    /** Gated on root and a working unshare checked here, not by the driver: a wrongly unhealthy driver fails. */
    @Test
    void whereExecCanWorkTheDriverIsHealthy() throws Exception {
        Assumptions.assumeTrue(rootWithUnshare(), "needs root and a private mount namespace");
        ExecDriver d = new ExecDriver();
        d.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        assertThat(d.health())
                .isEqualTo(DriverHealth.healthy("exec ready (chroot, mount namespace, user nobody; default pid_mode"
                        + " private, ipc_mode private)"));
        d.close();
    }

    private static boolean rootWithUnshare() throws Exception {
        boolean root = java.nio.file.Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Uid:")).anyMatch(l -> l.split("\\s+")[2].equals("0"));
        try {
            Process p = new ProcessBuilder("unshare", "--mount", "--", "true").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return root && p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private DriverException startFailure(ExecDriver d) throws Exception {
        TaskConfig task = TestTasks.task(dir, "e/1", Map.of("command", "true"), Map.of());
        try {
            d.start(task).toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(DriverException.class);
            return (DriverException) e.getCause();
        }
        throw new AssertionError("start did not fail");
    }

    @Test
    void hostPathsBecomeNomadsPathsInsideTheChroot() {
        Path task = Path.of("/data/alloc/a1/web");
        Path alloc = Path.of("/data/alloc/a1/alloc");
        assertThat(Chroot.inside("/data/alloc/a1/web/local", task, alloc)).isEqualTo("/local");
        assertThat(Chroot.inside("/data/alloc/a1/web/secrets", task, alloc)).isEqualTo("/secrets");
        assertThat(Chroot.inside("/data/alloc/a1/web/local/conf/x.hcl", task, alloc)).isEqualTo("/local/conf/x.hcl");
        assertThat(Chroot.inside("/data/alloc/a1/web", task, alloc)).isEqualTo("/");
        assertThat(Chroot.inside("/data/alloc/a1/alloc", task, alloc)).isEqualTo("/alloc");
        assertThat(Chroot.inside("/data/alloc/a1/alloc/data/db", task, alloc)).isEqualTo("/alloc/data/db");
        // only prefixes at a path boundary, and nothing else
        assertThat(Chroot.inside("/data/alloc/a1/website", task, alloc)).isEqualTo("/data/alloc/a1/website");
        assertThat(Chroot.inside("--dir=/data/alloc/a1/web/local", task, alloc))
                .isEqualTo("--dir=/data/alloc/a1/web/local");
        assertThat(Chroot.inside("bar", task, alloc)).isEqualTo("bar");

        Map<String, String> env = Chroot.insideEnv(Map.of(
                "NOMAD_TASK_DIR", "/data/alloc/a1/web/local",
                "NOMAD_SECRETS_DIR", "/data/alloc/a1/web/secrets",
                "NOMAD_ALLOC_DIR", "/data/alloc/a1/alloc",
                "DROVER_RUN_DIR", "/data/alloc/a1/web",
                "FOO", "bar"), task, alloc, Set.of("DROVER_RUN_DIR"));
        assertThat(env).isEqualTo(Map.of(
                "NOMAD_TASK_DIR", "/local",
                "NOMAD_SECRETS_DIR", "/secrets",
                "NOMAD_ALLOC_DIR", "/alloc",
                "DROVER_RUN_DIR", "/data/alloc/a1/web",
                "FOO", "bar"));
    }
}
