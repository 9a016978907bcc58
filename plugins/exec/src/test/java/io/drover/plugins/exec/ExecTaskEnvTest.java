package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.process.PreloadMarker;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 3: a job's environment must not reach exec's root-side setup. Replays the attack for real: a
 * shared library the "task" wrote into its own {@code local/} dir (compiled here with gcc), named by the task's
 * {@code LD_PRELOAD} with a leading {@code //} that dodges the host-path rewrite, must never be loaded by a process
 * running as root (unshare, sh, mount, chroot), while the task itself still gets its whole environment. Runs only
 * where exec is healthy (root with namespaces: this machine and CI); needs gcc ({@link PreloadMarker}).
 */
@ExtendWith(ProcessLeakCheck.class)
class ExecTaskEnvTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final AtomicInteger IDS = new AtomicInteger();
    @RegisterExtension
    static final ExecDriverFixture EXEC = new ExecDriverFixture();

    @TempDir
    Path dir;

    private TaskConfig sh(String script, Map<String, String> env) throws Exception {
        return sh("exec-env/" + IDS.incrementAndGet(), script, env);
    }

    private TaskConfig sh(String taskId, String script, Map<String, String> env) throws Exception {
        TaskConfig t = TestTasks.task(dir, taskId, Map.of("command", "/bin/sh", "args", List.of("-c", script)), env);
        Files.createDirectories(t.allocDir().resolve("data"));
        Files.createDirectories(t.allocDir().resolve("tmp"));
        return t;
    }

    private static ExitResult run(TaskConfig task) throws Exception {
        String id = EXEC.driver().start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
        try {
            return EXEC.driver().awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            EXEC.driver().destroy(id);
        }
    }

    @Test
    void aTasksLdPreloadIsNeverLoadedAsRoot() throws Exception {
        Path probe = dir.resolve("probe");
        Files.createDirectories(probe);
        Path library = PreloadMarker.compile(probe);
        TaskConfig shape = sh("", Map.of());
        Path local = shape.taskDir().resolve("local");
        Files.createDirectories(local);
        Files.copy(library, local.resolve("evil.so")); // what a prestart task could have written there
        String host = "/" + local.toAbsolutePath().normalize(); // "//data/...": not rewritten to /local
        TaskConfig task = sh(shape.taskId(), "echo \"FOO=$FOO\"", Map.of(
                "FOO", "bar",
                "LD_PRELOAD", host + "/evil.so /local/evil.so",
                PreloadMarker.DIR_VAR, host));

        assertThat(run(task)).isEqualTo(ExitResult.code(0));

        assertThat(Files.readString(task.stdoutPath())).as(Files.readString(task.stderrPath())).isEqualTo("FOO=bar\n");
        assertThat(PreloadMarker.markers(local)).as("who loaded the task's LD_PRELOAD library")
                .containsExactly("marker-uid-65534"); // the task itself, as nobody; never root (marker-uid-0)
    }

    @Test
    void theWholeEnvironmentReachesTheTaskExactly() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("FOO", "bar");
        env.put("QUOTED", "it's \"quoted\" $HOME `id` \\ ;");
        env.put("LINES", "one\ntwo\n");
        env.put("EMPTY", "");
        env.put("PWD", "/somewhere");
        TaskConfig task = TestTasks.task(dir, "exec-env/" + IDS.incrementAndGet(), Map.of("command", "env"), env);

        assertThat(run(task)).isEqualTo(ExitResult.code(0));

        String out = Files.readString(task.stdoutPath());
        assertThat(out).contains("FOO=bar\n", "QUOTED=it's \"quoted\" $HOME `id` \\ ;\n", "LINES=one\ntwo\n\n",
                "EMPTY=\n", "PWD=/somewhere\n", ProcessLeakCheck.MARKER_VAR + "=");
        assertThat(out).doesNotContain("OLDPWD=");
        assertThat(Files.readString(task.stderrPath())).isEmpty();
    }

    @Test
    void anEnvironmentNameAShellCannotExportFailsTheStartNamingIt() throws Exception {
        TaskConfig task = sh("true", Map.of("a.b", "1", "9x", "2", "FOO", "bar"));

        assertThat(EXEC.driver().start(task).toCompletableFuture()).failsWithin(WAIT)
                .withThrowableOfType(ExecutionException.class).havingCause().isInstanceOf(DriverException.class)
                .withMessage("exec: env 9x, a.b: not a valid environment variable name for exec (letters, digits"
                        + " and _, not starting with a digit)");
    }
}
