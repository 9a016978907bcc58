package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.driver.api.TaskStatus;
import io.drover.plugins.rawexec.RawExecDriver;
import io.drover.process.Await;
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
 * A real agent crash: a child JVM runs a durable engine with raw_exec ({@link RawExecAgent#main}), starts a task
 * that exits 7 after two seconds, one that runs until killed and two that wait on a FIFO, and is killed with
 * SIGKILL once all are durably Started. One gated task is released while no agent runs (exit 7), and the long
 * task is made to write a line then (kept in the pipe its shim holds, collected after the re-attach). A new engine
 * with a new driver on the same store then re-attaches: the true exit codes are recorded whether a task ended
 * while no agent ran ({@code down}), after the re-attach ({@code up}, released then, exit 9) or either
 * ({@code quick}); the long task is re-attached (not re-run) and stopped through the engine with kill
 * escalation; nothing is left running.
 */
@ExtendWith(ProcessLeakCheck.class)
class CrashRecoveryTest {
    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dataDir;

    @Test
    void tasksOfAKilledAgentAreReattachedAndTheirTrueExitCodesRecorded() throws Exception {
        runAgentAndKillIt();
        String allocId = "alloc-crash-1"; // group a; b is 2, c is 3
        Path down = dataDir.resolve("alloc/alloc-crash-2/down");
        long releasedAt = wallNanos();
        release(down.resolve("gate")); // no agent runs: only the shim sees it end
        Await.until("the shim of down recording its exit", WAIT, () -> statusFiles(down).count() == 1);
        long recordedBy = wallNanos();
        // issue 12, finding 17: the restart comes well after the end, so that their times are told apart
        Await.until("2 s after down ended", WAIT, () -> wallNanos() - recordedBy > 2_000_000_000L);
        // long writes while no agent runs: its shim holds the pipe's read end, so no SIGPIPE, and the line waits
        release(dataDir.resolve("alloc/alloc-crash-1/long/gate"));

        try (JournalStore store = JournalStore.open(dataDir.resolve("state"));
                EngineRuntime runtime = EngineRuntime.real(2)) {
            RawExecDriver driver = RawExecAgent.driver(runtime);
            try {
                Engine engine = RawExecAgent.engine(dataDir, store, driver, runtime);
                long restoredAt = wallNanos();
                assertThat(engine.restore()).isEqualTo(RawExecAgent.ALLOCATIONS);
                // resuming runs on the allocations' executors
                Await.until("down terminated", WAIT, () -> event(engine, "alloc-crash-2", RawExecAgent.DOWN,
                        TaskEventType.TERMINATED) != null);
                Await.until("up re-attached by the new driver", WAIT, () -> {
                    try {
                        return driver.inspect("alloc-crash-3/up/1").state() == TaskStatus.State.RUNNING;
                    } catch (TaskNotFoundException e) {
                        return false; // not recovered yet
                    }
                });
                TaskEvent downEnd = event(engine, "alloc-crash-2", RawExecAgent.DOWN, TaskEventType.TERMINATED);
                assertThat(downEnd.displayMessage()).isEqualTo("Exit Code: 7");
                // the time the shim recorded, not the time this agent found out (2 s and more later)
                assertThat(downEnd.time()).isBetween(releasedAt, recordedBy).isLessThan(restoredAt - 2_000_000_000L);
                TaskState downState = engine.terminal("alloc-crash-2").get(WAIT.toSeconds(), TimeUnit.SECONDS)
                        .taskStates().get(RawExecAgent.DOWN);
                assertThat(io.drover.core.time.Nanos.of(downState.finishedAt())).isEqualTo(downEnd.time());
                assertThat(engine.allocation("alloc-crash-3").orElseThrow().taskStates().get(RawExecAgent.UP)
                        .events().stream().map(TaskEvent::type)).doesNotContain(TaskEventType.TERMINATED);
                release(dataDir.resolve("alloc/alloc-crash-3/up/gate")); // re-attached: ends now
                AllocationState up = engine.terminal("alloc-crash-3").get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(up.taskStates().get(RawExecAgent.UP).events().stream()
                        .filter(e -> e.type() == TaskEventType.TERMINATED).map(TaskEvent::displayMessage))
                        .containsExactly("Exit Code: 9");
                assertThat(Files.readString(logs("alloc-crash-3", "up"))).isEqualTo("up ended\n");
                // what long wrote while no agent ran is collected once the new agent re-opens the held pipe
                Await.until("long's output", WAIT, () -> read(logs("alloc-crash-1", "long")).equals(
                        "written-while-down\n"));
                for (String id : List.of("alloc-crash-2", "alloc-crash-3")) {
                    AllocationState a = engine.terminal(id).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                    TaskState t = a.taskStates().values().iterator().next();
                    assertThat(types(t)).doesNotContain(TaskEventType.NOT_RECOVERED, TaskEventType.DRIVER_FAILURE);
                    assertThat(types(t).stream().filter(TaskEventType.STARTED::equals)).hasSize(1);
                }

                Await.until("quick terminated", WAIT, () -> event(engine, allocId, RawExecAgent.QUICK,
                        TaskEventType.TERMINATED) != null);
                assertThat(event(engine, allocId, RawExecAgent.QUICK, TaskEventType.TERMINATED).displayMessage())
                        .isEqualTo("Exit Code: 7");

                engine.stop(allocId); // the long task was re-attached: stopped with SIGTERM, then SIGKILL
                AllocationState done = engine.terminal(allocId).get(WAIT.toSeconds(), TimeUnit.SECONDS);
                TaskState quick = done.taskStates().get(RawExecAgent.QUICK);
                TaskState long_ = done.taskStates().get(RawExecAgent.LONG);
                for (TaskState t : List.of(quick, long_)) {
                    assertThat(types(t)).doesNotContain(TaskEventType.NOT_RECOVERED, TaskEventType.DRIVER_FAILURE);
                    assertThat(types(t).stream().filter(TaskEventType.STARTED::equals)).hasSize(1); // not re-run
                }
                assertThat(types(long_)).contains(TaskEventType.KILLING);
                assertThat(long_.events().stream().filter(e -> e.type() == TaskEventType.TERMINATED)
                        .map(TaskEvent::displayMessage)).singleElement().asString()
                        .startsWith("Exit Code: 137, Signal: 9");
            } finally {
                driver.close();
            }
        }
    }

    private static long wallNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private Path logs(String allocId, String task) {
        return dataDir.resolve("alloc/" + allocId + "/alloc/logs/" + task + ".stdout.0");
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Once the task has made its FIFO, writes a line to it: the task's {@code read} returns and it exits. */
    private static void release(Path fifo) throws java.io.IOException {
        Await.until("FIFO " + fifo, WAIT, () -> Files.exists(fifo) && !Files.isRegularFile(fifo));
        Files.writeString(fifo, "go\n");
    }

    private static java.util.stream.Stream<Path> statusFiles(Path taskDir) {
        try (java.util.stream.Stream<Path> files = Files.list(taskDir)) {
            return files.filter(f -> f.getFileName().toString().startsWith(".drover-exit.")
                    && !f.toString().endsWith(".tmp")).toList().stream();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Starts the agent JVM, waits for "started", kills it with SIGKILL. */
    private void runAgentAndKillIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path tmp = Files.createDirectories(dataDir.resolve("agent-tmp")); // its extracted shim outlives a kill -9
        ProcessBuilder pb = new ProcessBuilder(java.toString(), "-Djava.io.tmpdir=" + tmp, "-cp",
                System.getProperty("java.class.path"), RawExecAgent.class.getName(), dataDir.toString());
        pb.environment().putAll(ProcessLeakCheck.env()); // its tasks and shims carry the test's marker
        pb.redirectError(dataDir.resolve("agent.stderr").toFile());
        Process agent = pb.start();
        try {
            CompletableFuture<String> started = CompletableFuture.supplyAsync(() -> {
                try (BufferedReader r = new BufferedReader(
                        new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        if (line.equals(RawExecAgent.STARTED.trim())) {
                            return line;
                        }
                    }
                    throw new IllegalStateException("the agent ended without starting its tasks");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            started.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } finally {
            agent.destroyForcibly(); // SIGKILL: no shutdown hook, the tasks are left running
            agent.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private static TaskEvent event(Engine engine, String allocId, String task, TaskEventType type) {
        return engine.allocation(allocId).map(a -> a.taskStates().get(task)).flatMap(t -> t.events().stream()
                .filter(e -> e.type() == type).findFirst()).orElse(null);
    }

    private static List<TaskEventType> types(TaskState t) {
        return t.events().stream().map(TaskEvent::type).toList();
    }
}
