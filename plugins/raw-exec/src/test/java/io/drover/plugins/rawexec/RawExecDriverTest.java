package io.drover.plugins.rawexec;

import io.drover.process.WallTimers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.PluginConfigException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.process.Await;
import io.drover.process.KillReport;
import io.drover.process.ProcTable;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(ProcessLeakCheck.class)
class RawExecDriverTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final AtomicInteger IDS = new AtomicInteger();
    private static RawExecDriver driver;

    @TempDir
    Path dir;

    @BeforeAll
    static void init() throws Exception {
        driver = RawExecFixture.enabledDriver();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    private TaskConfig task(Map<String, Object> config) {
        return RawExecFixture.task(dir, "raw/" + IDS.incrementAndGet(), config, Map.of());
    }

    private TaskConfig sh(String script) {
        return task(Map.of("command", "sh", "args", List.of("-c", script)));
    }

    private String start(TaskConfig task) throws Exception {
        return driver.start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
    }

    private ExitResult exit(String id) throws Exception {
        return driver.awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static DriverException startFailure(RawExecDriver d, TaskConfig task) throws Exception {
        try {
            d.start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(DriverException.class);
            return (DriverException) e.getCause();
        }
        throw new AssertionError("start did not fail");
    }

    @Test
    void isDisabledUnlessEnabled() throws Exception {
        String message = "raw_exec is disabled; enable it with plugin \"raw_exec\" { config { enabled = true } }";
        RawExecDriver disabled = new RawExecDriver();
        disabled.init(new DriverContext(Map.of(), new WallTimers(), "0.1.0"));
        assertThat(disabled.health()).isEqualTo(new DriverHealth(DriverHealth.State.UNHEALTHY, message));
        DriverException e = startFailure(disabled, sh("exit 0"));
        assertThat(e).hasMessage(message);
        assertThat(e.recoverable()).isFalse();

        RawExecDriver off = new RawExecDriver();
        off.init(new DriverContext(Map.of("enabled", false), new WallTimers(), "0.1.0"));
        assertThat(off.health().isHealthy()).isFalse();
        assertThat(driver.health()).isEqualTo(DriverHealth.healthy("raw_exec ready"));
        assertThat(driver.name()).isEqualTo("raw_exec");
    }

    @Test
    void rejectsBadPluginConfig() {
        // the block's rules are EnabledFlag's (EnabledFlagTest); the driver refuses a bad block at init
        assertThatThrownBy(() -> new RawExecDriver().init(new DriverContext(Map.of("enabeld", true),
                new WallTimers(), "0.1.0"))).isInstanceOf(PluginConfigException.class);
    }

    @Test
    void validatesConfigOneProblemPerKey() {
        assertThat(driver.validateConfig(Map.of("command", "echo", "args", List.of("a"), "work_dir", "local")))
                .isEmpty();
        assertThat(driver.validateConfig(Map.of())).containsExactly(new ConfigProblem("command", "is required"));
        assertThat(driver.validateConfig(Map.of("command", "", "args", List.of("a", List.of()), "work_dir", List.of(),
                "comand", "x"))).extracting(ConfigProblem::key)
                .containsExactly("args[1]", "comand", "command", "work_dir");
        // HCL2's conversions: a number in args or work_dir is its text
        assertThat(driver.validateConfig(Map.of("command", "echo", "args", List.of("a", 1L), "work_dir", 3L)))
                .isEmpty();
    }

    @Test
    void echoResolvesOnTheAgentPathAndWritesToTheStdoutLog() throws Exception {
        TaskConfig task = task(Map.of("command", "echo", "args", List.of("foo", "bar")));
        assertThat(exit(start(task))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("foo bar\n");
        assertThat(Files.readString(task.stderrPath())).isEmpty();
    }

    @Test
    void taskEnvWorkDirAndStderrReachTheProcess() throws Exception {
        TaskConfig task = RawExecFixture.task(dir, "raw/" + IDS.incrementAndGet(), Map.of("command", "sh",
                "args", List.of("-c", "echo \"$NOMAD_TASK_NAME $FOO\"; pwd; echo err >&2")), Map.of("FOO", "bar"));
        assertThat(exit(start(task))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stdoutPath()))
                .isEqualTo(task.taskName() + " bar\n" + task.taskDir() + "\n");
        assertThat(Files.readString(task.stderrPath())).isEqualTo("err\n");

        TaskConfig inLocal = RawExecFixture.task(dir, task.taskId() + "x",
                Map.of("command", "pwd", "work_dir", "local"), Map.of());
        Files.createDirectories(inLocal.taskDir().resolve("local"));
        assertThat(exit(start(inLocal))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(inLocal.stdoutPath())).isEqualTo(inLocal.taskDir().resolve("local") + "\n");
    }

    @Test
    void startFailuresCarryTheOsReason() throws Exception {
        DriverException missing = startFailure(driver, task(Map.of("command", "nope")));
        assertThat(missing).hasMessage("exec: \"nope\": No such file or directory");
        assertThat(missing.recoverable()).isFalse();

        // outside the task's directories: never made executable
        Path notExec = Files.writeString(dir.resolve("x.sh"), "#!/bin/sh\n");
        assertThat(startFailure(driver, task(Map.of("command", notExec.toString()))))
                .hasMessage("exec: \"" + notExec + "\": Permission denied");

        TaskConfig badDir = task(Map.of("command", "true", "work_dir", "missing"));
        assertThat(startFailure(driver, badDir))
                .hasMessage("chdir \"" + badDir.taskDir().resolve("missing") + "\": No such file or directory");

        assertThat(startFailure(driver, task(Map.of("args", List.of())))).hasMessageContaining("command: is required");
    }

    @Test
    void aRenderedScriptWithoutPermsIsMadeExecutableAsNomadDoes() throws Exception {
        // angrycub's sleepy jobs: a template renders local/sleepy.sh (0644, no perms) and the task execs it
        TaskConfig rel = task(Map.of("command", "local/sleepy.sh"));
        Path script = Files.writeString(Files.createDirectories(rel.taskDir().resolve("local")).resolve("sleepy.sh"),
                "#!/bin/sh\necho slept\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(exit(start(rel))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(rel.stdoutPath())).isEqualTo("slept\n");
        assertThat(Files.getPosixFilePermissions(script))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));

        // an absolute path in the shared alloc dir (${NOMAD_ALLOC_DIR}/run.sh) likewise
        TaskConfig abs = task(Map.of());
        Path shared = Files.writeString(abs.allocDir().resolve("run.sh"), "#!/bin/sh\necho shared\n");
        Files.setPosixFilePermissions(shared, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        TaskConfig absTask = task(Map.of("command", shared.toString()));
        assertThat(exit(start(absTask))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(absTask.stdoutPath())).isEqualTo("shared\n");

        // a planted link to a file outside is not followed by the chmod: the exec fails, the target keeps its mode
        Path outside = Files.writeString(dir.resolve("secret.sh"), "#!/bin/sh\necho leaked\n");
        Files.setPosixFilePermissions(outside, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        TaskConfig linked = task(Map.of("command", "local/x.sh"));
        Files.createSymbolicLink(Files.createDirectories(linked.taskDir().resolve("local")).resolve("x.sh"), outside);
        assertThat(startFailure(driver, linked)).hasMessage("exec: \"local/x.sh\": Permission denied");
        assertThat(Files.getPosixFilePermissions(outside))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aBareCommandIsLookedUpInLocalThenAtTheTaskDirsRootBeforeThePath() throws Exception {
        // Nomad's lookupBin: command = "run.sh" finds local/run.sh, then <task dir>/run.sh, then the PATH; a
        // template without perms rendered there (0644) runs, made executable
        for (String where : List.of("root", "local", "both")) {
            TaskConfig task = task(Map.of("command", "run.sh", "args", List.of("a b")));
            Path local = Files.createDirectories(task.taskDir().resolve("local"));
            if (!where.equals("local")) {
                Files.writeString(task.taskDir().resolve("run.sh"), "#!/bin/sh\necho root \"$1\"\n");
            }
            if (!where.equals("root")) {
                Files.writeString(local.resolve("run.sh"), "#!/bin/sh\necho local \"$1\"\n");
            }
            assertThat(exit(start(task))).as(where).isEqualTo(ExitResult.code(0));
            assertThat(Files.readString(task.stdoutPath())).as(where)
                    .isEqualTo((where.equals("root") ? "root" : "local") + " a b\n");
        }
        // a name found nowhere in the task dir is still the PATH's
        TaskConfig echo = task(Map.of("command", "echo", "args", List.of("from path")));
        assertThat(exit(start(echo))).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(echo.stdoutPath())).isEqualTo("from path\n");
    }

    @Test
    void deliversSignalsByName() throws Exception {
        TaskConfig task = sh("trap 'echo USR1 >> got' USR1; trap 'echo USR2 >> got' USR2;"
                + " trap 'echo INT >> got; exit 2' INT; : > ready; while :; do sleep 1000 & wait $!; done");
        String id = start(task);
        Path got = task.taskDir().resolve("got");
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("ready")));
        driver.signal(id, "SIGUSR1");
        Await.until("USR1", WAIT, () -> read(got).contains("USR1"));
        driver.signal(id, "usr2");
        Await.until("USR2", WAIT, () -> read(got).contains("USR2"));
        driver.signal(id, "SIGINT");
        assertThat(exit(id)).isEqualTo(ExitResult.code(2));
        assertThat(read(got)).isEqualTo("USR1\nUSR2\nINT\n");
        driver.destroy(id); // sweeps a sleep a signal may have caught between fork and exec
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (Exception e) {
            return "";
        }
    }

    @Test
    void termIgnoringTaskEndsOnlyOnSigkill() throws Exception {
        TaskConfig task = sh("trap '' TERM; : > ready; while :; do sleep 1000 & wait $!; done");
        String id = start(task);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("ready")));
        driver.signal(id, "SIGTERM");
        CompletableFuture<ExitResult> exit = driver.awaitExit(id).toCompletableFuture();
        assertThatThrownBy(() -> exit.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        driver.signal(id, "SIGKILL");
        ExitResult result = exit(id);
        assertThat(result.exitCode()).isEqualTo(137);
        assertThat(result.signal()).isEqualTo(9);
        driver.destroy(id);
    }

    @Test
    void sigkillTakesATreeWithASetsidGrandchild() throws Exception {
        TaskConfig task = sh("setsid sh -c 'echo $$ > gc.tmp; mv gc.tmp gc.pid; exec sleep 1000' &"
                + " sleep 1000 & wait");
        String id = start(task);
        Path gcFile = task.taskDir().resolve("gc.pid");
        Await.until("grandchild", WAIT, () -> Files.exists(gcFile));
        int gc = Integer.parseInt(read(gcFile).trim());
        Await.until("grandchild sleeps", WAIT,
                () -> ProcTable.read(gc).map(p -> p.comm().equals("sleep")).orElse(false));
        driver.signal(id, "SIGKILL");
        assertThat(exit(id)).isEqualTo(ExitResult.signalled(9));
        KillReport report = driver.lastKill(id).orElseThrow().toCompletableFuture().get(1, TimeUnit.SECONDS);
        assertThat(report.clean()).isTrue();
        assertThat(report.killed()).extracting(ProcTable.Proc::pid).contains(gc);
        assertThat(ProcTable.read(gc).filter(p -> !p.zombie())).isEmpty();
        driver.destroy(id);
    }

    @Test
    void rotatesOutputPerTheTasksLogsBlock() throws Exception {
        TaskConfig base = sh("for i in 1 2 3 4 5; do head -c 999 /dev/zero | tr '\\0' x; echo; done");
        TaskConfig task = new TaskConfig(base.taskId(), base.allocId(), base.jobId(), base.groupName(),
                base.taskName(), base.config(), base.env(), base.taskDir(), base.allocDir(), base.stdoutPath(),
                base.stderrPath(), 2, 1000);
        assertThat(exit(start(task))).isEqualTo(ExitResult.code(0));
        Path logs = task.stdoutPath().getParent();
        String name = task.taskName() + ".stdout.";
        assertThat(Files.exists(logs.resolve(name + "2"))).isFalse();
        assertThat(Files.readString(logs.resolve(name + "3"))).isEqualTo("x".repeat(999) + "\n");
        assertThat(Files.readString(logs.resolve(name + "4"))).isEqualTo("x".repeat(999) + "\n");
        driver.destroy(task.taskId());
    }

    @Test
    void whatATaskLeavesBehindIsKilledWhenItEnds() throws Exception {
        TaskConfig task = sh("sleep 1000 & echo $! > bg.pid");
        String id = start(task);
        assertThat(exit(id)).isEqualTo(ExitResult.code(0));
        int bg = Integer.parseInt(read(task.taskDir().resolve("bg.pid")).trim());
        // the shim (a child subreaper) killed and reaped it before reporting the exit
        assertThat(ProcTable.read(bg)).isEmpty();
        driver.destroy(id);
    }
}
