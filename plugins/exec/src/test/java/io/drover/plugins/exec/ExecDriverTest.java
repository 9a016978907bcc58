package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.process.Await;
import io.drover.process.ProcTable;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TestTasks;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exec driver with real processes, chroots and mount namespaces. Runs only where the driver is healthy (root
 * with unshare, mount and chroot, and allowed to make a mount namespace: this machine and CI); elsewhere the tests
 * are skipped with the driver's own health line. After each test: no process left (ProcessLeakCheck) and no mount
 * under the test's directory, neither in the host's namespace nor in any process's.
 */
@ExtendWith(ProcessLeakCheck.class)
class ExecDriverTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final AtomicInteger IDS = new AtomicInteger();
    @RegisterExtension
    static final ExecDriverFixture EXEC = new ExecDriverFixture();

    @TempDir
    Path dir;

    @AfterEach
    void noMountIsLeft() {
        String root = dir.toAbsolutePath().normalize().toString();
        assertThat(mountPointsUnder(Path.of("/proc/self/mountinfo"), root)).as("host mounts").isEmpty();
        Await.until("every namespace with mounts under " + root + " has ended", WAIT,
                () -> namespacesWithMountsUnder(root).isEmpty());
    }

    private TaskConfig task(Map<String, Object> config, Map<String, String> env) {
        TaskConfig t = TestTasks.task(dir, "exec/" + IDS.incrementAndGet(), config, env);
        try {
            Files.createDirectories(t.allocDir().resolve("data"));
            Files.createDirectories(t.allocDir().resolve("tmp"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return t;
    }

    private TaskConfig sh(String script) {
        return task(Map.of("command", "/bin/sh", "args", List.of("-c", script)), Map.of());
    }

    private String start(TaskConfig task) throws Exception {
        return EXEC.driver().start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS).taskId();
    }

    private ExitResult exit(String id) throws Exception {
        return EXEC.driver().awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private ExitResult run(TaskConfig task) throws Exception {
        String id = start(task);
        try {
            return exit(id);
        } finally {
            EXEC.driver().destroy(id);
        }
    }

    @Test
    void echoOutputReachesTheStdoutLog() throws Exception {
        TaskConfig task = task(Map.of("command", "echo", "args", List.of("foo", "bar")), Map.of());
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("foo bar\n");
        assertThat(Files.readString(task.stderrPath())).isEmpty();
    }

    @Test
    void runsAsNobodyInAChrootOfItsTaskDir() throws Exception {
        TaskConfig task = sh("id -u; id -g; id -G; pwd; ls /");
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        List<String> lines = Files.readString(task.stdoutPath()).lines().toList();
        assertThat(lines.subList(0, 4)).containsExactly("65534", "65534", "65534", "/");
        List<String> root = lines.subList(4, lines.size());
        assertThat(root).contains("bin", "etc", "usr", "local", "secrets", "tmp", "alloc", "dev", "proc");
        assertThat(root).doesNotContain("root", "work", "home", "opt", "var", "boot");
        assertThat(Files.readString(task.stderrPath())).isEmpty();
    }

    @Test
    void theSystemDirectoriesAreReadOnlyBinds() throws Exception {
        TaskConfig task = sh("touch /usr/drover-exec-x; echo \"usr=$?\"; touch /etc/drover-exec-x; echo \"etc=$?\";"
                + " touch /drover-exec-x; echo \"root=$?\"; cat /proc/self/mountinfo");
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        String out = Files.readString(task.stdoutPath());
        assertThat(out).contains("usr=1\n", "etc=1\n", "root=1\n");
        assertThat(Files.readString(task.stderrPath()))
                .contains("touch: cannot touch '/usr/drover-exec-x': Read-only file system")
                .contains("touch: cannot touch '/etc/drover-exec-x': Read-only file system");
        assertThat(Path.of("/usr/drover-exec-x")).doesNotExist();
        assertThat(Path.of("/etc/drover-exec-x")).doesNotExist();
        // the task's own view of its mounts: /usr and /etc read-only, no setuid programs; /alloc writable
        for (String d : List.of("/usr", "/etc", "/alloc")) {
            assertThat(out.lines().filter(l -> l.split(" ").length > 5 && l.split(" ")[4].equals(d)).toList())
                    .singleElement().satisfies(l -> assertThat(List.of(l.split(" ")[5].split(",")))
                            .contains(d.equals("/alloc") ? "rw" : "ro", "nosuid", "nodev"));
        }
    }

    @Test
    void nomadsPathsInsideAndTheHostsOutside() throws Exception {
        Path hostTaskDir = dir.resolve("alloc1");
        TaskConfig probe = TestTasks.task(dir, "exec/paths", Map.of(), Map.of());
        Path local = probe.taskDir().resolve("local");
        Map<String, String> env = Map.of(
                "NOMAD_TASK_DIR", local.toString(),
                "NOMAD_SECRETS_DIR", probe.taskDir().resolve("secrets").toString(),
                "NOMAD_ALLOC_DIR", probe.allocDir().toString(),
                "FOO", hostTaskDir.toString());
        TaskConfig task = new TaskConfig(probe.taskId(), probe.allocId(), probe.jobId(), probe.groupName(),
                probe.taskName(), Map.of("command", "/bin/sh", "args", List.of("-c",
                        "echo \"$NOMAD_TASK_DIR $NOMAD_SECRETS_DIR $NOMAD_ALLOC_DIR $FOO $1\";"
                                + " echo hi > \"$NOMAD_TASK_DIR/out\"; echo shared > \"$NOMAD_ALLOC_DIR/data/x\";"
                                + " echo s > \"$NOMAD_SECRETS_DIR/s\"; echo t > /tmp/t",
                        "sh", local.resolve("in.txt").toString())),
                merged(probe.env(), env), probe.taskDir(), probe.allocDir(), probe.stdoutPath(), probe.stderrPath());
        Files.createDirectories(task.allocDir().resolve("data"));
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stderrPath())).isEmpty();
        assertThat(Files.readString(task.stdoutPath()))
                .isEqualTo("/local /secrets /alloc " + hostTaskDir + " /local/in.txt\n");
        assertThat(Files.readString(local.resolve("out"))).isEqualTo("hi\n");
        assertThat(Files.readString(task.allocDir().resolve("data/x"))).isEqualTo("shared\n");
        assertThat(Files.readString(task.taskDir().resolve("secrets/s"))).isEqualTo("s\n");
        assertThat(Files.readString(task.taskDir().resolve("tmp/t"))).isEqualTo("t\n");
        assertThat(Files.getAttribute(local.resolve("out"), "unix:uid")).isEqualTo(65534);
        assertThat(Files.getAttribute(local, "unix:uid")).isEqualTo(65534);
        assertThat(Files.getAttribute(task.taskDir(), "unix:uid")).isEqualTo(0);
    }

    private static Map<String, String> merged(Map<String, String> a, Map<String, String> b) {
        Map<String, String> m = new java.util.HashMap<>(a);
        m.putAll(b);
        return m;
    }

    @Test
    void aRenderedScriptWithoutPermsRunsAsNobodyAsNomadMakesItExecutable() throws Exception {
        // angrycub's sleepy jobs: command = "${NOMAD_TASK_DIR}/sleepy.sh", rendered by the agent (root) as 0644
        TaskConfig probe = task(Map.of(), Map.of());
        Path local = Files.createDirectories(probe.taskDir().resolve("local"));
        Path script = Files.writeString(local.resolve("sleepy.sh"), "#!/bin/sh\necho slept; id -u\n");
        Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        TaskConfig task = new TaskConfig(probe.taskId(), probe.allocId(), probe.jobId(), probe.groupName(),
                probe.taskName(), Map.of("command", script.toString()), probe.env(), probe.taskDir(),
                probe.allocDir(), probe.stdoutPath(), probe.stderrPath());
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("slept\n65534\n");
        assertThat(Files.getPosixFilePermissions(script))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aBareCommandIsLookedUpInLocalThenAtTheTaskDirsRootBeforeThePath() throws Exception {
        // angrycub/env/escaped_env_vars: command = "run.sh", a template with destination = "run.sh" (0644, the
        // task dir's root); Nomad's lookupTaskBin tries local/run.sh, then /run.sh, then the PATH in the chroot
        for (String where : List.of("root", "local", "both")) {
            TaskConfig probe = task(Map.of(), Map.of());
            Path local = Files.createDirectories(probe.taskDir().resolve("local"));
            if (!where.equals("local")) {
                Files.writeString(probe.taskDir().resolve("run.sh"), "#!/bin/sh\necho root \"$1\"\n");
            }
            if (!where.equals("root")) {
                Files.writeString(local.resolve("run.sh"), "#!/bin/sh\necho local \"$1\"\n");
            }
            TaskConfig task = new TaskConfig(probe.taskId(), probe.allocId(), probe.jobId(), probe.groupName(),
                    probe.taskName(), Map.of("command", "run.sh", "args", List.of("a b")), probe.env(),
                    probe.taskDir(), probe.allocDir(), probe.stdoutPath(), probe.stderrPath());
            assertThat(run(task)).as(where).isEqualTo(ExitResult.code(0));
            assertThat(Files.readString(task.stdoutPath())).as(where)
                    .isEqualTo((where.equals("root") ? "root" : "local") + " a b\n");
        }
    }

    @Test
    void aPlantedLinkOrHardLinkInLocalNeverMakesAHostFileExecutable() throws Exception {
        Path secret = Files.writeString(dir.resolve("shadow"), "#!/bin/sh\necho leaked\n");
        Files.setPosixFilePermissions(secret, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        for (String kind : List.of("symlink", "hardlink")) {
            TaskConfig task = task(Map.of("command", "/local/x.sh"), Map.of());
            Path x = Files.createDirectories(task.taskDir().resolve("local")).resolve("x.sh");
            if (kind.equals("symlink")) {
                Files.createSymbolicLink(x, secret);
            } else {
                Files.createLink(x, secret);
            }
            // the link's target is not in the chroot (127); the hard link is there but not executable (126)
            assertThat(run(task).exitCode()).as(kind).isEqualTo(kind.equals("symlink") ? 127 : 126);
            assertThat(Files.getPosixFilePermissions(secret)).as(kind)
                    .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            assertThat(Files.readString(task.stdoutPath())).as(kind).doesNotContain("leaked");
        }
    }

    @Test
    void workDirIsAPathInsideTheChroot() throws Exception {
        TaskConfig task = task(Map.of("command", "pwd", "work_dir", "/local"), Map.of());
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.stdoutPath())).isEqualTo("/local\n");
    }

    @Test
    void theTaskWritesToTheSharedAllocDirButCannotReplaceItsDirectories() throws Exception {
        // Nomad's e2e java jobs: javac -d ${NOMAD_ALLOC_DIR} as the task user
        TaskConfig task = sh("echo built > /alloc/Pid.class && mv /alloc/logs /alloc/moved; echo rc=$?");
        Files.createDirectories(task.allocDir().resolve("logs")); // the agent's, root's
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(task.allocDir().resolve("Pid.class"))).isEqualTo("built\n");
        assertThat(Files.readString(task.stdoutPath())).isNotEqualTo("rc=0\n");
        assertThat(task.allocDir().resolve("logs")).isDirectory();
        assertThat(task.allocDir().resolve("moved")).doesNotExist();
        assertThat(Files.getAttribute(task.allocDir(), "unix:uid")).isEqualTo(0);
    }

    @Test
    void aCommandMissingFromTheChrootFailsTheStart() throws Exception {
        TaskConfig task = task(Map.of("command", "drover-no-such-command"), Map.of());
        assertThatThrownBy(() -> EXEC.driver().start(task).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(DriverException.class)
                .hasMessage("exec: \"drover-no-such-command\": No such file or directory in the task's chroot");
        // a host file outside chroot_env and the task dir is not in the chroot either
        Path hostScript = Files.writeString(dir.resolve("host.sh"), "#!/bin/sh\necho host\n");
        assertThat(hostScript.toFile().setExecutable(true)).isTrue();
        TaskConfig onHost = task(Map.of("command", hostScript.toString()), Map.of());
        assertThatThrownBy(() -> EXEC.driver().start(onHost).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .cause().hasMessage("exec: \"" + hostScript + "\": No such file or directory in the task's chroot");
    }

    @Test
    void killSignalReachesATaskThatTrapsIt() throws Exception {
        TaskConfig task = sh("trap 'echo TERM > /local/got; exit 3' TERM; : > /local/ready;"
                + " while :; do sleep 1000 & wait $!; done");
        String id = start(task);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));
        EXEC.driver().signal(id, "SIGTERM");
        assertThat(exit(id)).isEqualTo(ExitResult.code(3));
        assertThat(Files.readString(task.taskDir().resolve("local/got"))).isEqualTo("TERM\n");
        EXEC.driver().destroy(id);
    }

    @Test
    void theTaskIsTheSpawnedProcessSoDefaultSignalActionsApply() throws Exception {
        // in the host's PID namespace, no forked wrapper: a task that does not trap SIGINT dies of it (a PID 1
        // would not: ExecPidModeTest)
        TaskConfig task = task(Map.of("command", "sleep", "args", List.of("1000"), "pid_mode", "host"), Map.of());
        String id = start(task);
        Await.until("the task is sleep", WAIT, () -> sleepUnder(task.taskDir()).isPresent());
        ProcTable.Proc sleep = sleepUnder(task.taskDir()).orElseThrow();
        String parent = ProcTable.read(sleep.ppid()).map(ProcTable.Proc::comm).orElse("?");
        assertThat(parent).as("the task's parent is the shim, no wrapper process")
                .isNotIn("unshare", "sh", "chroot", "?");
        EXEC.driver().signal(id, "SIGINT");
        assertThat(exit(id)).isEqualTo(ExitResult.signalled(2));
        EXEC.driver().destroy(id);
    }

    private static java.util.Optional<ProcTable.Proc> sleepUnder(Path taskDir) {
        return ProcTable.snapshot().all().stream()
                .filter(p -> p.comm().equals("sleep") && !p.zombie())
                .filter(p -> ProcTable.environValue(p.pid(), "DROVER_RUN_DIR").map(taskDir.toString()::equals)
                        .orElse(false))
                .findFirst();
    }

    @Test
    void aTermIgnoringTaskEndsOnlyOnSigkill() throws Exception {
        TaskConfig task = sh("trap '' TERM; : > /local/ready; while :; do sleep 1000 & wait $!; done");
        String id = start(task);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));
        EXEC.driver().signal(id, "SIGTERM");
        CompletableFuture<ExitResult> exit = EXEC.driver().awaitExit(id).toCompletableFuture();
        assertThatThrownBy(() -> exit.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        EXEC.driver().signal(id, "SIGKILL");
        assertThat(exit(id)).isEqualTo(ExitResult.signalled(9));
        assertThat(EXEC.driver().lastKill(id).orElseThrow().toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS)
                .clean()).isTrue();
        EXEC.driver().destroy(id);
    }

    @Test
    void mountsStayInTheTasksNamespaceAndDeletingTheTaskDirSparesTheHost() throws Exception {
        TaskConfig task = sh(": > /local/ready; exec sleep 1000");
        String id = start(task);
        Await.until("ready", WAIT, () -> Files.exists(task.taskDir().resolve("local/ready")));
        String taskDir = task.taskDir().toAbsolutePath().normalize().toString();
        // while it runs: its namespace has the binds, the host sees empty directories and no mount
        List<Integer> inside = namespacesWithMountsUnder(taskDir);
        assertThat(inside).hasSize(1);
        List<String> mounts = mountPointsUnder(Path.of("/proc/" + inside.get(0) + "/mountinfo"), "/");
        assertThat(mounts).contains("/usr", "/etc", "/bin", "/alloc", "/dev", "/dev/null", "/proc");
        assertThat(mountPointsUnder(Path.of("/proc/self/mountinfo"), taskDir)).isEmpty();
        try (Stream<Path> usr = Files.list(task.taskDir().resolve("usr"))) {
            assertThat(usr).isEmpty();
        }
        EXEC.driver().signal(id, "SIGKILL");
        assertThat(exit(id)).isEqualTo(ExitResult.signalled(9));
        EXEC.driver().destroy(id);
        Await.until("the namespace has ended", WAIT, () -> namespacesWithMountsUnder(taskDir).isEmpty());

        long usrBin = count(Path.of("/usr/bin"));
        long etc = count(Path.of("/etc"));
        deleteTree(task.taskDir()); // what client GC does
        assertThat(task.taskDir()).doesNotExist();
        assertThat(count(Path.of("/usr/bin"))).isEqualTo(usrBin);
        assertThat(count(Path.of("/etc"))).isEqualTo(etc);
        assertThat(Path.of("/bin/sh")).exists();
    }

    @Test
    void aRestartRunsAgainInTheSameTaskDir() throws Exception {
        TaskConfig first = sh("echo run >> /local/runs; ls /dev");
        assertThat(run(first)).isEqualTo(ExitResult.code(0));
        TaskConfig again = new TaskConfig(first.taskId() + "-restart", first.allocId(), first.jobId(),
                first.groupName(), first.taskName(), first.config(), first.env(), first.taskDir(), first.allocDir(),
                first.stdoutPath(), first.stderrPath());
        assertThat(run(again)).isEqualTo(ExitResult.code(0));
        assertThat(Files.readString(first.taskDir().resolve("local/runs"))).isEqualTo("run\nrun\n");
        assertThat(Files.readString(first.stderrPath())).isEmpty();
        assertThat(Files.readString(first.stdoutPath())).contains("null", "urandom", "fd");
        try (Stream<Path> dev = Files.list(first.taskDir().resolve("dev"))) {
            assertThat(dev).as("the host's view of /dev: the tmpfs was the namespace's").isEmpty();
        }
    }

    @Test
    void whatATaskLeavesBehindIsKilledWhenItEnds() throws Exception {
        // the host's PID namespace, where the shim kills what is left (in a private one the kernel does)
        TaskConfig task = task(Map.of("command", "/bin/sh", "args",
                List.of("-c", "sleep 1000 & echo $! > /local/bg.pid"), "pid_mode", "host"), Map.of());
        assertThat(run(task)).isEqualTo(ExitResult.code(0));
        int bg = Integer.parseInt(Files.readString(task.taskDir().resolve("local/bg.pid")).trim());
        assertThat(ProcTable.read(bg)).isEmpty();
    }

    private static long count(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.count();
        }
    }

    private static void deleteTree(Path d) throws IOException {
        try (Stream<Path> paths = Files.walk(d)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Mount points (field 5 of mountinfo) at or under {@code root}. */
    private static List<String> mountPointsUnder(Path mountinfo, String root) {
        try {
            return Files.readAllLines(mountinfo).stream().map(l -> l.split(" ")[4])
                    .filter(m -> root.equals("/") || m.equals(root) || m.startsWith(root + "/")).toList();
        } catch (IOException e) {
            return List.of(); // the process is gone
        }
    }

    /**
     * The pids of live processes whose mount namespace has a mount under {@code root}: those chrooted under it (a
     * chrooted process's mountinfo lists mounts relative to its root, so its root is what shows) and those whose
     * mountinfo lists a mount point under it (the setup before the chroot).
     */
    private static List<Integer> namespacesWithMountsUnder(String root) {
        List<Integer> pids = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : procs) {
                String procRoot;
                try {
                    procRoot = Files.readSymbolicLink(p.resolve("root")).toString();
                } catch (IOException e) {
                    continue; // gone
                }
                boolean chrootedUnder = procRoot.equals(root) || procRoot.startsWith(root + "/");
                if (chrootedUnder || !mountPointsUnder(p.resolve("mountinfo"), root).isEmpty()) {
                    pids.add(Integer.parseInt(p.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return pids;
    }
}
