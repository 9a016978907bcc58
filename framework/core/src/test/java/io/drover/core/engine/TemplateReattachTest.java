package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.plugins.rawexec.RawExecDriver;
import io.drover.process.ProcessLeakCheck;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16: the templates of a task a restarted agent re-attached are watched at once, not from its next run. A
 * real agent (a child JVM, {@link TemplateReattachAgent}) starts three raw_exec tasks and is killed with SIGKILL;
 * a new engine with a new driver on the same state dir re-attaches them. Then, as Nomad's template hook on
 * restore: a re-render that changes nothing neither restarts nor signals ({@code restart}, {@code noop} before
 * their change); a source changed after the re-attach applies the change_mode ({@code restart}: Restart
 * Signaled and a second run; {@code noop}: the file only, the same run); a source changed while no agent ran
 * restarts the task at the re-attach ({@code down}); {@code once} templates are not watched ({@code once}). The templates' input is an artifact, fetched once.
 */
@ExtendWith(ProcessLeakCheck.class)
class TemplateReattachTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dataDir;

    /** Where the artifact comes from: world-readable, as a local artifact source must be. */
    @TempDir
    Path sourceDir;

    @Test
    void reattachedTasksTemplatesAreWatchedAtOnce() throws Exception {
        Files.setPosixFilePermissions(sourceDir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path source = Files.writeString(sourceDir.resolve("in.txt"), "v1");
        Files.setPosixFilePermissions(source, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        runAgentAndKillIt(source);
        // while no agent runs: the re-attach's render re-creates copy.txt (noop), which the test awaits
        for (String task : List.of(TemplateReattachAgent.RESTART, TemplateReattachAgent.NOOP,
                TemplateReattachAgent.DOWN, TemplateReattachAgent.ONCE)) {
            Files.delete(taskDir(task).resolve("local/copy.txt"));
        }
        RawExecJobs.change(taskDir(TemplateReattachAgent.DOWN).resolve("local/in.txt"), "v2");

        try (JournalStore store = JournalStore.open(dataDir.resolve("state"));
                EngineRuntime runtime = EngineRuntime.real(2)) {
            RawExecDriver driver = RawExecAgent.driver(runtime);
            try {
                Engine engine = RawExecAgent.engine(dataDir, store, driver, runtime);
                assertThat(engine.restore()).isEqualTo(TemplateReattachAgent.ALLOCATIONS);
                for (String task : List.of(TemplateReattachAgent.RESTART, TemplateReattachAgent.NOOP,
                        TemplateReattachAgent.DOWN, TemplateReattachAgent.ONCE)) {
                    Path copy = taskDir(task).resolve("local/copy.txt");
                    RawExecJobs.await(() -> read(copy).startsWith("copy="), "the re-attach's render of " + task);
                }

                // changed while no agent ran: restarted at the re-attach
                String down = TemplateReattachAgent.DOWN;
                RawExecJobs.await(() -> count(engine, down, TaskEventType.STARTED) == 2, "down's second run");
                assertThat(count(engine, down, TaskEventType.RESTART_SIGNALED)).isEqualTo(1);
                assertThat(read(taskDir(down).resolve("local/out.txt"))).isEqualTo("v2");

                // nothing changed: re-attached, not restarted; then a change restarts it
                String restart = TemplateReattachAgent.RESTART;
                assertThat(count(engine, restart, TaskEventType.STARTED)).isEqualTo(1);
                assertThat(types(engine, restart)).doesNotContain(TaskEventType.NOT_RECOVERED,
                        TaskEventType.RESTART_SIGNALED);
                long changedAt = wallNanos();
                Path onceDir = taskDir(TemplateReattachAgent.ONCE);
                RawExecJobs.change(onceDir.resolve("local/in.txt"), "v2"); // with restart's: as many polls pass
                RawExecJobs.change(taskDir(restart).resolve("local/in.txt"), "v2");
                RawExecJobs.await(() -> count(engine, restart, TaskEventType.STARTED) == 2, "restart's second run");
                List<TaskEvent> signaled = events(engine, restart, TaskEventType.RESTART_SIGNALED);
                assertThat(signaled).hasSize(1);
                assertThat(signaled.get(0).time()).as("after the change, not at the re-attach")
                        .isGreaterThanOrEqualTo(changedAt);
                assertThat(signaled.get(0).displayMessage()).contains("Template with change_mode restart");
                assertThat(read(taskDir(restart).resolve("local/out.txt"))).isEqualTo("v2");

                // noop: the file re-rendered, the re-attached run left alone
                String noop = TemplateReattachAgent.NOOP;
                Path noopDir = taskDir(noop);
                RawExecJobs.change(noopDir.resolve("local/in.txt"), "v2");
                RawExecJobs.await(() -> read(noopDir.resolve("local/out.txt")).equals("v2"), "noop's re-render");
                RawExecJobs.await(() -> read(noopDir.resolve("local/copy.txt")).equals("copy=v2"),
                        "noop's file input re-rendered");
                assertThat(types(engine, noop)).doesNotContain(TaskEventType.RESTART_SIGNALED,
                        TaskEventType.SIGNALING, TaskEventType.RESTARTING, TaskEventType.NOT_RECOVERED);
                assertThat(count(engine, noop, TaskEventType.STARTED)).isEqualTo(1);
                assertThat(state(engine, noop).state()).isEqualTo(io.drover.core.state.TaskLifeState.RUNNING);

                // once: not watched after the re-attach either (the polls that saw restart's and noop's changes
                // passed); its destination, removed while no agent ran, was rendered again then
                String once = TemplateReattachAgent.ONCE;
                assertThat(read(onceDir.resolve("local/out.txt"))).isEqualTo("v1");
                assertThat(read(onceDir.resolve("local/copy.txt"))).isEqualTo("copy=v1");
                assertThat(types(engine, once)).doesNotContain(TaskEventType.RESTART_SIGNALED,
                        TaskEventType.RESTARTING, TaskEventType.NOT_RECOVERED);
                assertThat(count(engine, once, TaskEventType.STARTED)).isEqualTo(1);

                for (AllocationState a : engine.allocations()) {
                    engine.stop(a.id());
                }
                for (AllocationState a : engine.allocations()) {
                    AllocationState done = engine.terminal(a.id()).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    TaskState t = done.taskStates().values().iterator().next();
                    assertThat(t.failed()).as(a.id()).isFalse();
                }
            } finally {
                driver.close();
            }
        }
    }

    private Path taskDir(String task) throws java.io.IOException {
        try (var allocs = Files.list(dataDir.resolve("alloc"))) {
            return allocs.map(a -> a.resolve(task)).filter(Files::isDirectory).findFirst()
                    .orElseThrow(() -> new AssertionError("no task dir of " + task));
        }
    }

    private static TaskState state(Engine engine, String task) {
        return engine.allocations().stream().map(a -> a.taskStates().get(task)).filter(t -> t != null)
                .findFirst().orElseThrow();
    }

    private static List<TaskEvent> events(Engine engine, String task, TaskEventType type) {
        return state(engine, task).events().stream().filter(e -> e.type() == type).toList();
    }

    private static long count(Engine engine, String task, TaskEventType type) {
        return events(engine, task, type).size();
    }

    private static List<TaskEventType> types(Engine engine, String task) {
        return state(engine, task).events().stream().map(TaskEvent::type).toList();
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static long wallNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    /** Starts the agent JVM, waits for its "started" line, kills it with SIGKILL (its tasks keep running). */
    private void runAgentAndKillIt(Path source) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path tmp = Files.createDirectories(dataDir.resolve("agent-tmp")); // its extracted shim outlives a kill -9
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), TemplateReattachAgent.class.getName(), dataDir.toString(),
                source.toString());
        pb.environment().putAll(ProcessLeakCheck.env()); // its tasks and shims carry the test's marker
        pb.redirectError(dataDir.resolve("agent.stderr").toFile());
        Process agent = pb.start();
        try {
            CompletableFuture.supplyAsync(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.equals(TemplateReattachAgent.STARTED)) {
                            return line;
                        }
                    }
                    throw new IllegalStateException("the agent ended without starting its tasks: "
                            + read(dataDir.resolve("agent.stderr")));
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            agent.destroyForcibly(); // SIGKILL: no shutdown hook, the tasks are left running
            agent.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }
}
