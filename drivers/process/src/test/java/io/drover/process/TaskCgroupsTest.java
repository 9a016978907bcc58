package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.DriverException;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.TaskResources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-task cgroups ({@link TaskCgroups}) with real processes, as root on a cgroup v1 node: the limits read back
 * from the cgroup files while the task runs, the task is inside them from its first instruction, a task that
 * allocates past {@code memory_max} is "OOM Killed", and the cgroup is gone once the run has ended (the
 * {@link ProcessLeakCheck} also fails on a drover cgroup left behind).
 */
@ExtendWith(ProcessLeakCheck.class)
class TaskCgroupsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static ProcessSupervisor supervisor;

    @TempDir
    Path dir;

    private final SupervisedTasks tasks = new SupervisedTasks("test", new WallTimers(), TaskCgroups.node());

    @BeforeAll
    static void create() {
        supervisor = ProcessSupervisor.create("cgroups");
    }

    @AfterAll
    static void close() {
        supervisor.close();
    }

    @BeforeEach
    void cgroupsOn() {
        Assumptions.assumeTrue(TaskCgroups.node().enabled(), "task cgroups: " + TaskCgroups.node().whyOff());
    }

    private TaskConfig task(String id, List<String> command, TaskResources resources) {
        TaskConfig t = TestTasks.task(dir, id, Map.of(), Map.of()).withResources(resources);
        return t;
    }

    private TaskHandle start(TaskConfig t, List<String> command) throws Exception {
        SpawnSpec spec = new SpawnSpec(command.get(0), command.subList(1, command.size()),
                SupervisedTasks.envWithAgentPath(t), t.taskDir(), t.stdoutPath(), t.stderrPath(), null,
                SupervisedTasks.statusFile(t));
        return tasks.start(t, supervisor, spec).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private ExitResult exit(String id) throws Exception {
        return tasks.awaitExit(id).toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Path memoryDir(TaskConfig t) {
        return TaskCgroups.node().memoryParent().resolve(t.allocId() + "." + t.taskName());
    }

    /** {@code cgroup}, once the removals handed to the {@link CgroupWorker} so far are done. */
    private static Path removed(Path cgroup) throws Exception {
        CgroupWorker.instance().flush().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        return cgroup;
    }

    /** Until the one process in the cgroup is {@code comm}: the shim's child joins first, then execs. */
    private static void awaitExecd(Path cgroup, String comm) {
        Await.until(comm + " in " + cgroup, WAIT, () -> {
            try {
                String pid = read(cgroup.resolve("cgroup.procs"));
                return !pid.isEmpty() && read(Path.of("/proc", pid, "comm")).equals(comm);
            } catch (Exception e) {
                return false;
            }
        });
    }

    /** SIGKILLs the run, awaits its exit, forgets it. */
    private ExitResult kill(String id) throws Exception {
        tasks.signal(id, "SIGKILL");
        ExitResult r = exit(id);
        tasks.destroy(id);
        return r;
    }

    private static String read(Path file) throws Exception {
        return Files.readString(file).trim();
    }

    @Test
    void aTaskThatAllocatesPastMemoryMaxIsOomKilled() throws Exception {
        TaskConfig t = task("oom", List.of(), new TaskResources(100, 32, 48));
        // dd's 200 MiB buffer, filled by read(2): exit 0 if nothing limits it
        start(t, List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=200M", "count=1"));
        ExitResult r = exit("oom");
        assertThat(r.oomKilled()).as("%s", r).isTrue();
        assertThat(r.signal()).isEqualTo(9);
        assertThat(r.message()).startsWith(TaskCgroup.OOM_KILLED);
        assertThat(removed(memoryDir(t))).doesNotExist();
        tasks.destroy("oom");
    }

    @Test
    void aReRunRightAfterAnOomKillGetsAFreshCgroup() throws Exception {
        TaskConfig t = task("rerun", List.of(), new TaskResources(100, 32, 48));
        start(t, List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=200M", "count=1"));
        assertThat(exit("rerun").oomKilled()).isTrue();
        tasks.destroy("rerun");
        // at once, as a restart with delay 0: the old run's removal may still be queued, and must not take the
        // new run's cgroup nor leave it the old run's OOM counter
        start(t, List.of("true"));
        assertThat(exit("rerun")).isEqualTo(ExitResult.code(0));
        assertThat(removed(memoryDir(t))).doesNotExist();
        tasks.destroy("rerun");
    }

    @Test
    void theSameTaskWithoutResourcesIsNotLimited() throws Exception {
        TaskConfig t = task("free", List.of(), TaskResources.NONE);
        start(t, List.of("dd", "if=/dev/zero", "of=/dev/null", "bs=200M", "count=1"));
        assertThat(exit("free")).isEqualTo(ExitResult.code(0));
        assertThat(removed(memoryDir(t))).doesNotExist();
        tasks.destroy("free");
    }

    @Test
    void limitsReadBackWhileRunningAndTheCgroupIsGoneAfter() throws Exception {
        TaskConfig t = task("limits", List.of(), new TaskResources(250, 64, 128));
        start(t, List.of("sleep", "60"));
        Path mem = memoryDir(t);
        awaitExecd(mem, "sleep");
        assertThat(read(mem.resolve("memory.limit_in_bytes"))).isEqualTo(Long.toString(128L << 20));
        assertThat(read(mem.resolve("memory.soft_limit_in_bytes"))).isEqualTo(Long.toString(64L << 20));
        assertThat(read(mem.resolve("memory.swappiness"))).isEqualTo("0");
        String pid = read(mem.resolve("cgroup.procs"));
        assertThat(read(Path.of("/proc", pid, "comm"))).as("only the task, not the shim").isEqualTo("sleep");
        Path cpuParent = TaskCgroups.node().cpuParent();
        if (cpuParent != null) {
            Path cpu = cpuParent.resolve(mem.getFileName());
            assertThat(read(cpu.resolve("cpu.shares"))).isEqualTo("250");
            assertThat(read(cpu.resolve("cgroup.procs"))).isEqualTo(pid);
        }
        assertThat(kill("limits").signal()).isEqualTo(9);
        assertThat(removed(mem)).doesNotExist();
        if (cpuParent != null) {
            assertThat(cpuParent.resolve(mem.getFileName())).doesNotExist();
        }
    }

    @Test
    void withoutMemoryMaxMemoryIsTheHardLimitAndTheTaskIsInsideFromItsFirstInstruction() throws Exception {
        TaskConfig t = task("first", List.of(), new TaskResources(100, 40, 0));
        // cat's own /proc/self/cgroup: where the exec'd program is before it can do anything
        start(t, List.of("cat", "/proc/self/cgroup"));
        assertThat(exit("first")).isEqualTo(ExitResult.code(0));
        String relative = "/" + TaskCgroups.node().memoryParent().resolve(t.allocId() + "." + t.taskName())
                .toString().substring("/sys/fs/cgroup/memory/".length());
        assertThat(Files.readAllLines(t.stdoutPath())).anyMatch(l -> l.endsWith(":memory:" + relative));
        assertThat(TaskCgroups.memoryLimits(t.resources())).containsExactly(40L << 20, 0L);
        assertThat(removed(memoryDir(t))).doesNotExist();
        tasks.destroy("first");
    }

    @Test
    void aCgroupThatCannotBeMadeFailsTheStartWithTheReason() throws Exception {
        Path notCgroupfs = Files.createDirectories(dir.resolve("fake-memory"));
        SupervisedTasks fake = new SupervisedTasks("test", new WallTimers(),
                new TaskCgroups(notCgroupfs, null, ""));
        TaskConfig t = task("fake", List.of(), new TaskResources(100, 32, 0));
        SpawnSpec spec = new SpawnSpec("true", List.of(), SupervisedTasks.envWithAgentPath(t), t.taskDir(),
                t.stdoutPath(), t.stderrPath(), null, SupervisedTasks.statusFile(t));
        assertThatThrownBy(() -> fake.start(t, supervisor, spec).toCompletableFuture().get())
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(DriverException.class)
                .hasMessageContaining("cannot make the task's cgroup " + notCgroupfs.resolve("drover"))
                .hasMessageContaining("memory.swappiness");
        assertThat(notCgroupfs.resolve("drover").resolve("alloc1." + t.taskName())).as("removed again").doesNotExist();
        assertThat(fake.contains("fake")).isFalse();
    }

    @Test
    void aJoinThatFailsEndsTheRunBeforeTheTaskRuns() throws Exception {
        SpawnSpec spec = new SpawnSpec("sh", List.of("-c", "echo ran"), ProcessLeakCheck.env(), dir,
                dir.resolve("out"), dir.resolve("err"), null, dir.resolve("status"), null, Namespaces.HOST,
                List.of(TaskCgroups.node().memoryParent().resolve("no-such-cgroup")));
        ExitResult r = supervisor.spawn(spec).onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(r.exitCode()).isEqualTo(127);
        assertThat(r.message()).contains("joining the task's cgroup failed").contains("No such file or directory");
        assertThat(Files.readString(dir.resolve("out"))).isEmpty();
        assertThat(Files.readString(dir.resolve("status"))).startsWith("cgroup 2 ended ");
    }

    @Test
    void namesThatAreNotPlainSegmentsAreRefused() {
        for (String[] bad : new String[][] {{"..", "t"}, {"a/b", "t"}, {"a.b", "t"}, {"a", ".."}, {"a", "x/y"},
                {"a", ""}, {"a", "x\ny"}}) {
            assertThatThrownBy(() -> TaskCgroups.name(bad[0], bad[1])).isInstanceOf(SpawnException.class)
                    .hasMessageContaining("not a plain path segment");
        }
    }

    @Test
    void theSweepRemovesOnlyStaleEmptyCgroups() throws Exception {
        Path parent = TaskCgroups.node().memoryParent();
        Files.createDirectories(parent);
        Path stale = Files.createDirectory(parent.resolve("sweep-test-" + ProcessHandle.current().pid() + ".t"));
        TaskConfig t = task("busy", List.of(), new TaskResources(100, 64, 0));
        start(t, List.of("sleep", "60"));
        Path busy = memoryDir(t);
        awaitExecd(busy, "sleep");
        // a sweep at agent start skips cgroups younger than its grace: another agent may be starting them
        TaskCgroups.node().sweep(Instant.now().minus(TaskCgroups.SWEEP_GRACE));
        assertThat(stale).exists();
        TaskCgroups.node().sweep(Instant.now().plusSeconds(1));
        assertThat(stale).doesNotExist();
        assertThat(busy).as("a cgroup with a process is kept").exists();
        kill("busy");
        assertThat(removed(busy)).doesNotExist();
    }

    @Test
    void offByTheEnvironmentOrWithoutV1Controllers() throws Exception {
        assertThat(TaskCgroups.detect("0", Path.of("/proc/self/cgroup"), Path.of("/sys/fs/cgroup")).whyOff())
                .isEqualTo("DROVER_TASK_CGROUPS=0 in the agent's environment");
        Path proc = Files.writeString(dir.resolve("cgroup"), "0::/\n");
        TaskCgroups v2 = TaskCgroups.detect(null, proc, dir);
        assertThat(v2.enabled()).isFalse();
        assertThat(v2.whyOff()).contains("no cgroup v1 memory controller");
        TaskConfig t = task("off", List.of(), new TaskResources(100, 32, 0));
        assertThat(v2.create(t.allocId(), t.taskName(), t.resources())).isEmpty();
    }

    @Test
    void aRestartedAgentReattachesToTheCgroupAndRemovesItAtTheEnd() throws Exception {
        TaskConfig t = task("again", List.of(), new TaskResources(100, 64, 96));
        TaskHandle handle = start(t, List.of("sleep", "60"));
        assertThat(handle.state().get(ShimHandle.CGROUPS)).startsWith(memoryDir(t).toString());
        ProcessSupervisor other = ProcessSupervisor.create("restarted");
        try {
            SupervisedTasks restarted = new SupervisedTasks("test", new WallTimers(), TaskCgroups.node());
            restarted.recover(handle, other);
            restarted.signal("again", "SIGKILL");
            ExitResult r = restarted.awaitExit("again").toCompletableFuture().get(WAIT.toMillis(),
                    TimeUnit.MILLISECONDS);
            assertThat(r.signal()).isEqualTo(9);
            assertThat(r.oomKilled()).isFalse();
            assertThat(removed(memoryDir(t))).doesNotExist();
            restarted.destroy("again");
            exit("again");
            tasks.destroy("again");
        } finally {
            other.close();
        }
    }
}
