package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.DriverContext;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.process.Await;
import io.drover.process.ProcTable;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import io.drover.process.WallTimers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad's {@code pid_mode} / {@code ipc_mode} on exec, with real processes and namespaces (root only, like every
 * exec test): by default the task is PID 1 of its own namespace, as Nomad's e2e isolation jobs expect
 * ({@code my pid is 1}), its {@code /proc} and an exec in it list the namespace's processes only, a signal it does
 * not handle is dropped while the SIGKILL at the kill timeout ends it with its tree, and a second driver (a
 * restarted agent) re-attaches to it. {@code "host"} (task or plugin default) keeps the host's namespaces.
 */
@ExtendWith(ProcessLeakCheck.class)
class ExecPidModeTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** exec.hcl of Nomad's e2e/isolation: bash runs local/pid.sh, which says $BASHPID. */
    private static final String PID_SH = "#!/usr/bin/env bash\necho my pid is $BASHPID\n";

    private ExecDriver driver;
    private ExecDriver second;

    @TempDir
    Path dir;

    @AfterEach
    void close() {
        for (ExecDriver d : new ExecDriver[] {driver, second}) {
            if (d != null) {
                d.close();
            }
        }
    }

    private ExecDriver driver(Map<String, Object> pluginConfig) throws Exception {
        ExecDriver d = new ExecDriver();
        d.init(new DriverContext(pluginConfig, new WallTimers(), "0.1.0"));
        org.junit.jupiter.api.Assumptions.assumeTrue(d.health().isHealthy(), d.health().description());
        return d;
    }

    private TaskConfig task(String id, Map<String, Object> config) throws Exception {
        TaskConfig t = TestTasks.task(dir, id, config, Map.of());
        Files.createDirectories(t.allocDir().resolve("data"));
        return t;
    }

    /** Nomad's exec.hcl / exec_host.hcl task, with its template already rendered. */
    private TaskConfig pidJob(String id, Map<String, Object> extra) throws Exception {
        Map<String, Object> config = new HashMap<>(Map.of("command", "bash", "args", List.of("-c", "local/pid.sh")));
        config.putAll(extra);
        TaskConfig t = task(id, config);
        Path script = Files.createDirectories(t.taskDir().resolve("local")).resolve("pid.sh");
        Files.writeString(script, PID_SH);
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        return t;
    }

    private ExitResult run(ExecDriver d, TaskConfig t) throws Exception {
        String id = d.start(t).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
        try {
            return exit(d, id);
        } finally {
            d.destroy(id);
        }
    }

    private static ExitResult exit(ExecDriver d, String id) throws Exception {
        return d.awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static String stdout(TaskConfig t) throws Exception {
        return Files.readString(t.stdoutPath());
    }

    @Test
    void byDefaultTheTaskIsPidOneOfItsOwnNamespace() throws Exception {
        driver = driver(Map.of());
        TaskConfig t = pidJob("pid/1", Map.of());
        assertThat(run(driver, t)).isEqualTo(ExitResult.code(0));
        assertThat(stdout(t)).isEqualTo("my pid is 1\n");
    }

    @Test
    void pidModeHostKeepsTheHostsPid() throws Exception {
        driver = driver(Map.of());
        TaskConfig t = pidJob("pid/2", Map.of("pid_mode", "host", "ipc_mode", "host"));
        assertThat(run(driver, t)).isEqualTo(ExitResult.code(0));
        assertThat(stdout(t)).startsWith("my pid is ").isNotEqualTo("my pid is 1\n");
    }

    @Test
    void thePluginsDefaultsDecideWhenTheTaskSaysNothing() throws Exception {
        driver = driver(Map.of("default_pid_mode", "host", "default_ipc_mode", "host"));
        TaskConfig host = pidJob("pid/3", Map.of());
        assertThat(run(driver, host)).isEqualTo(ExitResult.code(0));
        assertThat(stdout(host)).isNotEqualTo("my pid is 1\n");
        TaskConfig ipc = task("pid/3b", Map.of("command", "/bin/sh", "args", List.of("-c",
                "readlink /proc/self/ns/ipc")));
        assertThat(run(driver, ipc)).isEqualTo(ExitResult.code(0));
        assertThat(stdout(ipc).strip()).isEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/ipc")).toString());

        TaskConfig privateTask = pidJob("pid/4", Map.of("pid_mode", "private"));
        assertThat(run(driver, privateTask)).isEqualTo(ExitResult.code(0));
        assertThat(stdout(privateTask)).isEqualTo("my pid is 1\n");
    }

    @Test
    void aBadPluginDefaultIsOneLineNamingTheKey() {
        assertThatThrownBy(() -> new ExecDriver().init(new DriverContext(Map.of("default_pid_mode", "none"),
                new WallTimers(), "0.1.0")))
                .isInstanceOf(PluginConfigException.class)
                .hasMessageContaining("default_pid_mode").hasMessageContaining("must be one of \"private\", \"host\"");
    }

    @Test
    void inPrivateModeProcAndAnExecListOnlyTheNamespace() throws Exception {
        driver = driver(Map.of());
        // alloc_exec.hcl: sleep infinity; here the task first lists /proc (only itself: pid 1)
        TaskConfig t = task("pid/5", Map.of("command", "/bin/sh", "args", List.of("-c",
                "ls /proc | grep '^[0-9]' > /local/procs; : > /local/ready; exec sleep infinity")));
        String id = driver.start(t).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
        try {
            Await.until("ready", WAIT, () -> Files.exists(t.taskDir().resolve("local/ready")));
            // sh (pid 1) and the ls and grep of its pipe: nothing of the host's
            assertThat(Files.readAllLines(t.taskDir().resolve("local/procs"))).hasSizeLessThanOrEqualTo(3)
                    .contains("1");
            // Nomad's alloc exec of `ps ax`: the header, the task and ps itself (here: what ps reads, /proc)
            ExitResult e = driver.exec(id, List.of("/bin/sh", "-c",
                    "for p in /proc/[0-9]*; do echo \"${p#/proc/} $(cat $p/comm)\"; done > /local/ps"),
                    Duration.ofSeconds(10)).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(e).isEqualTo(ExitResult.code(0));
            List<String> ps = Files.readAllLines(t.taskDir().resolve("local/ps"));
            assertThat(ps).contains("1 sleep");
            assertThat(ps).as("the exec joined the task's PID namespace").anyMatch(l -> l.endsWith(" sh"));
            assertThat(ps).as("the task, the exec's shell and its subshells; no host process")
                    .allMatch(l -> l.equals("1 sleep") || l.endsWith(" sh") || l.endsWith(" cat"));
        } finally {
            driver.signal(id, "SIGKILL");
            exit(driver, id);
            driver.destroy(id);
        }
    }

    @Test
    void aTermIgnoringTaskIsKilledWithItsTreeBySigkillAtTheKillTimeout() throws Exception {
        driver = driver(Map.of());
        // PID 1 without a TERM handler (the kernel drops TERM for it), children that left its group and ignore TERM
        TaskConfig t = task("pid/6", Map.of("command", "/bin/sh", "args", List.of("-c",
                "setsid sh -c 'trap \"\" TERM; : > /local/r1; exec sleep 1000' &"
                        + " setsid sh -c ': > /local/r2; exec sleep 1000' & wait")));
        String id = driver.start(t).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
        // each child says it is ready once its setsid and trap are done: a TERM before that would reach it in the
        // task's group and end it, and the task's wait would return (PidNamespaceTest's flake in CI)
        Await.until("both children ready", WAIT, () -> Files.exists(t.taskDir().resolve("local/r1"))
                && Files.exists(t.taskDir().resolve("local/r2")));
        List<Integer> tree = underTaskDir(t);
        assertThat(tree).hasSizeGreaterThanOrEqualTo(3);
        driver.signal(id, "SIGTERM");
        CompletableFuture<ExitResult> end = driver.awaitExit(id).toCompletableFuture();
        assertThat(end.completeOnTimeout(null, 300, TimeUnit.MILLISECONDS).get()).as("alive after SIGTERM")
                .isNull();
        driver.signal(id, "SIGKILL"); // what the engine sends at kill_timeout
        assertThat(exit(driver, id)).isEqualTo(ExitResult.signalled(9));
        for (int pid : tree) {
            Await.until("pid " + pid + " gone", WAIT, () -> ProcTable.read(pid).map(ProcTable.Proc::zombie)
                    .orElse(true));
        }
        driver.destroy(id);
    }

    @Test
    void aPrivateModeTaskIsReattachedByARestartedAgentAndKilled() throws Exception {
        driver = driver(Map.of());
        TaskConfig t = task("pid/7", Map.of("command", "/bin/sh", "args", List.of("-c",
                "trap 'exit 5' TERM; echo my pid is $$ > /local/pid; sleep 1000 & : > /local/ready; wait")));
        TaskHandle handle = driver.start(t).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        Await.until("ready", WAIT, () -> Files.exists(t.taskDir().resolve("local/ready")));
        assertThat(Files.readString(t.taskDir().resolve("local/pid"))).isEqualTo("my pid is 1\n");

        second = driver(Map.of()); // the agent after kill -9: the first driver is never asked again
        assertThat(second.recover(handle)).isEqualTo(handle);
        second.signal(handle.taskId(), "SIGTERM"); // handled by PID 1: forwarded by the shim, delivered
        assertThat(exit(second, handle.taskId())).isEqualTo(ExitResult.code(5));

        TaskConfig stubborn = task("pid/8", Map.of("command", "/bin/sh", "args", List.of("-c",
                "sleep 1000 & : > /local/ready; wait")));
        TaskHandle h2 = driver.start(stubborn).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        Await.until("ready", WAIT, () -> Files.exists(stubborn.taskDir().resolve("local/ready")));
        List<Integer> tree = underTaskDir(stubborn);
        second.recover(h2);
        second.signal(h2.taskId(), "SIGKILL");
        assertThat(exit(second, h2.taskId())).isEqualTo(ExitResult.signalled(9));
        for (int pid : tree) {
            Await.until("pid " + pid + " gone", WAIT, () -> ProcTable.read(pid).map(ProcTable.Proc::zombie)
                    .orElse(true));
        }
        for (String id : List.of(handle.taskId(), h2.taskId())) {
            second.destroy(id);
            driver.destroy(id);
        }
    }

    /** The host pids of the task's processes (the shim excluded), found by the run-dir marker of their env. */
    private static List<Integer> underTaskDir(TaskConfig t) {
        return ProcTable.snapshot().all().stream().filter(p -> !p.zombie() && !p.comm().equals("drover-shim"))
                .filter(p -> ProcTable.environValue(p.pid(), "DROVER_RUN_DIR").map(t.taskDir().toString()::equals)
                        .orElse(false))
                .map(ProcTable.Proc::pid).toList();
    }
}
