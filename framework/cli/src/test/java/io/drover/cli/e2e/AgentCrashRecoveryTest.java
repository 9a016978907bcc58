package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery with real processes: a real agent child JVM running raw_exec tasks is killed with
 * {@code kill -9} (or stopped with SIGTERM) and restarted on the same data_dir. The tasks are {@link GatedTasks}:
 * their start counters prove a re-attached task was not run again, and their release files let a task end while
 * no agent runs. No process may be left at the end of a test.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AgentCrashRecoveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();

    @AfterEach
    void noAgentAndNoTaskLeft() throws Exception {
        NoProcessLeft.closeAndAssertNone(agents, tmp);
    }

    private AgentProcess agent(Path config, String name) throws Exception {
        AgentProcess a = AgentProcess.start(config, tmp.resolve(name + ".err"));
        agents.add(a);
        return a;
    }

    /**
     * One agent holds four allocations when it is killed: one finished ({@code done}), one whose prestart task
     * runs so that its main task has not started yet ({@code gated}: killed before a task starts), one running
     * ({@code running}: killed while it runs, released after the restart), one released while no agent runs
     * ({@code ending}: ends while the agent is down), and one whose shim and task are killed with SIGKILL while no
     * agent runs ({@code lost}: its end cannot be known).
     */
    @Test
    void killDashNineBeforeATaskStartsWhileItRunsAndWhileItEndsThenRestartOnTheSameDataDir() throws Exception {
        Path config = AgentTestConfig.writeWithRawExec(tmp);
        GatedTasks g = new GatedTasks(tmp);
        AgentProcess first = agent(config, "first");
        String addr = first.awaitAddress(START);

        g.release("done-main");
        CliRun done = CliRun.of("job", "run", "-address", addr,
                g.job(tmp, "done", g.task("main", "done-main", 0, "")).toString());
        assertThat(done.exitCode()).as(done.err() + done.out()).isZero();
        String doneId = done.out().strip().substring(0, 8);
        g.release("gated-main");
        String gatedId = detach(addr, g.job(tmp, "gated",
                g.task("gate", "gated-gate", 0, "lifecycle {\n hook = \"prestart\"\n }"),
                g.task("main", "gated-main", 0, "")));
        String runningId = detach(addr, g.job(tmp, "running", g.task("main", "running-main", 7, "")));
        String endingId = detach(addr, g.job(tmp, "ending", g.task("main", "ending-main", 9, "")));
        String lostId = detach(addr, g.job(tmp, "lost", g.task("main", "lost-main", 3, "")));
        for (String mark : List.of("gated-gate", "running-main", "ending-main", "lost-main")) {
            await("task " + mark + " started", () -> g.pid(mark).isPresent());
        }
        JsonNode runningBefore = awaitState(addr, runningId, "main", "running");
        awaitState(addr, gatedId, "gate", "running");
        awaitState(addr, endingId, "main", "running");
        awaitState(addr, lostId, "main", "running");
        JsonNode doneBefore = allocJson(addr, doneId);
        assertThat(Allocs.count(allocJson(addr, gatedId), "main", "Started")).isZero();

        first.kill();

        // while no agent runs: "ending" ends on its own (its shim records exit 9 and ends too), "lost" is killed
        int endingShim = shimOf(g.pid("ending-main").orElseThrow());
        g.release("ending-main");
        await("ending's task and shim gone", () -> !alive(g.pid("ending-main").orElseThrow()) && !alive(endingShim));
        int lostShim = shimOf(g.pid("lost-main").orElseThrow());
        // the shim first (so that it records nothing), then the task's own group (issue 18: the task leads one)
        assertThat(new ProcessBuilder("kill", "-KILL", "--", "-" + lostShim, "-" + g.pid("lost-main").orElseThrow())
                .start().waitFor()).isZero();
        await("lost's task and shim gone", () -> !alive(g.pid("lost-main").orElseThrow()) && !alive(lostShim));

        AgentProcess second = agent(config, "second");
        String addr2 = second.awaitAddress(START);

        assertThat(allocJson(addr2, doneId)).as("a finished allocation comes back exactly as it was")
                .isEqualTo(doneBefore);

        JsonNode ending = awaitTerminal(addr2, endingId);
        assertThat(Allocs.event(ending, "main", "Terminated").path("ExitCode").asInt())
                .as("the true exit code of a task that ended while no agent ran").isEqualTo(9);
        assertThat(Allocs.event(ending, "main", "Terminated").path("DisplayMessage").asText())
                .startsWith("Exit Code: 9");
        assertThat(Allocs.types(ending.path("TaskStates").path("main"))).doesNotContain("Not Recovered");
        assertThat(Allocs.count(ending, "main", "Started")).isEqualTo(1);

        JsonNode lost = awaitTerminal(addr2, lostId);
        assertThat(lost.path("ClientStatus").asText()).isEqualTo("failed");
        assertThat(Allocs.types(lost.path("TaskStates").path("main"))).contains("Not Recovered")
                .as("no made-up exit code").doesNotContain("Terminated");
        assertThat(Allocs.event(lost, "main", "Not Recovered").path("DisplayMessage").asText())
                .contains("recorded no exit status");

        JsonNode running = allocJson(addr2, runningId);
        assertThat(running.path("TaskStates").path("main").path("State").asText()).isEqualTo("running");
        List<JsonNode> eventsBefore = events(runningBefore, "main");
        assertThat(events(running, "main").subList(0, eventsBefore.size())).as("events before the kill, unchanged")
                .isEqualTo(eventsBefore);
        g.release("running-main");
        running = awaitTerminal(addr2, runningId);
        assertThat(Allocs.event(running, "main", "Terminated").path("ExitCode").asInt()).isEqualTo(7);
        assertThat(Allocs.count(running, "main", "Started")).as("re-attached, not started again").isEqualTo(1);
        assertThat(Allocs.types(running.path("TaskStates").path("main"))).doesNotContain("Not Recovered");
        CliRun logs = CliRun.of("alloc", "logs", "-address", addr2, runningId, "main");
        assertThat(logs.out()).as("output before and after the re-attach")
                .contains("running-main waiting", "running-main released");

        assertThat(Allocs.count(allocJson(addr2, gatedId), "main", "Started"))
                .as("the main task waits for its prestart task, re-attached").isZero();
        g.release("gated-gate");
        JsonNode gated = awaitTerminal(addr2, gatedId);
        assertThat(gated.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(Allocs.count(gated, "gate", "Started")).isEqualTo(1);
        assertThat(Allocs.count(gated, "main", "Started")).isEqualTo(1);
        assertThat(Allocs.event(gated, "main", "Terminated").path("ExitCode").asInt()).isZero();

        for (String mark : List.of("done-main", "gated-gate", "gated-main", "running-main", "ending-main",
                "lost-main")) {
            assertThat(g.starts(mark)).as("runs of " + mark).isEqualTo(1);
        }
        assertThat(allocJson(addr2, doneId)).as("the finished allocation is not run again").isEqualTo(doneBefore);
        assertThat(second.stderr()).contains("re-attached to process");
    }

    @Test
    void sigtermLeavesTheTaskRunningSaysSoAndTheNextAgentReattachesAndRecordsItsExit() throws Exception {
        Path config = AgentTestConfig.writeWithRawExec(tmp);
        GatedTasks g = new GatedTasks(tmp);
        AgentProcess first = agent(config, "first");
        String addr = first.awaitAddress(START);
        String id = detach(addr, g.job(tmp, "running", g.task("main", "running-main", 7, "")));
        await("task started", () -> g.pid("running-main").isPresent());
        awaitState(addr, id, "main", "running");

        first.terminate();

        assertThat(first.stderr()).contains("1 task(s) left running for the next agent");
        assertThat(alive(g.pid("running-main").orElseThrow())).as("the task still runs").isTrue();
        String addr2 = agent(config, "second").awaitAddress(START);
        assertThat(allocJson(addr2, id).path("TaskStates").path("main").path("State").asText()).isEqualTo("running");
        g.release("running-main");
        JsonNode alloc = awaitTerminal(addr2, id);
        assertThat(Allocs.event(alloc, "main", "Terminated").path("ExitCode").asInt()).isEqualTo(7);
        assertThat(Allocs.count(alloc, "main", "Started")).isEqualTo(1);
        assertThat(g.starts("running-main")).isEqualTo(1);
    }

    private static String detach(String addr, Path job) {
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out().strip();
    }

    private static JsonNode allocJson(String addr, String id) throws Exception {
        CliRun run = CliRun.of("alloc", "status", "-json", "-address", addr, id);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return JSON.readTree(run.out());
    }

    private static JsonNode awaitState(String addr, String id, String task, String state) throws Exception {
        JsonNode[] last = new JsonNode[1];
        await("task " + task + " of " + id + " " + state, () -> {
            last[0] = allocJson(addr, id);
            return state.equals(last[0].path("TaskStates").path(task).path("State").asText());
        });
        return last[0];
    }

    private static JsonNode awaitTerminal(String addr, String id) throws Exception {
        JsonNode[] last = new JsonNode[1];
        await("allocation " + id + " terminal", () -> {
            last[0] = allocJson(addr, id);
            String s = last[0].path("ClientStatus").asText();
            return s.equals("complete") || s.equals("failed");
        });
        return last[0];
    }

    /** Polls every 20 ms until the condition holds; fails after {@link #WAIT}. */
    private static void await(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.call()) {
            assertThat(System.nanoTime()).as(what + " within " + WAIT).isLessThan(deadline);
            LockSupport.parkNanos(20_000_000);
        }
    }

    private static boolean alive(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** The task's shim: its parent (the task leads a process group of its own, in the shim's session). */
    private static int shimOf(int pid) throws Exception {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
    }

    private static List<JsonNode> events(JsonNode alloc, String task) {
        List<JsonNode> out = new ArrayList<>();
        alloc.path("TaskStates").path(task).path("Events").forEach(out::add);
        return out;
    }
}
