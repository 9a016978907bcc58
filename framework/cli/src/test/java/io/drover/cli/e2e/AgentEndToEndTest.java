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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real agent in a child JVM driven by the in-process CLI: the seed's flow ({@code job run}, {@code alloc
 * status -json}), a {@code kill -9} while a task runs and a restart on the same data_dir, a graceful stop, and
 * client commands with no agent. A corrupt store: CorruptStoreTest.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AgentEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();

    @AfterEach
    void killAgents() throws Exception {
        for (AgentProcess a : agents) {
            a.close();
            assertThat(a.process().isAlive()).isFalse();
        }
    }

    private AgentProcess agent(Path config, String name) throws Exception {
        AgentProcess a = AgentProcess.start(config, tmp.resolve(name + ".err"));
        agents.add(a);
        return a;
    }

    @Test
    void jobRunWaitsForTheAllocationAndAllocStatusJsonShowsEveryTaskDead() throws Exception {
        Path config = AgentTestConfig.write(tmp);
        String addr = agent(config, "agent").awaitAddress(START);
        Path job = AgentTestConfig.job(tmp, "example", "200ms");

        CliRun run = CliRun.of("job", "run", "-address", addr, job.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("example.g[0]", "complete");
        String prefix = run.out().strip().substring(0, 8);
        JsonNode alloc = allocJson(addr, prefix);
        assertThat(alloc.path("TaskStates").path("main").path("State").asText()).isEqualTo("dead");
        assertThat(alloc.path("TaskStates").path("poststop").path("State").asText()).isEqualTo("dead");
        assertThat(types(alloc, "poststop")).containsSubsequence("Received", "Started", "Terminated");

        CliRun text = CliRun.of("alloc", "status", "-verbose", "-address", addr, prefix);
        assertThat(text.exitCode()).isZero();
        assertThat(text.out()).contains("Task \"poststop\" (poststop) is \"dead\"", "Task \"main\" is \"dead\"");
        assertThat(CliRun.of("job", "status", "-address", addr).out()).contains("example", "dead");
    }

    @Test
    void jobRunOfAServiceJobReturnsOnceItsAllocationRuns() throws Exception {
        String addr = agent(AgentTestConfig.write(tmp), "agent").awaitAddress(START);
        Path job = Files.writeString(tmp.resolve("svc.hcl"), """
                job "svc" {
                  type = "service"
                  group "g" {
                    task "web" {
                      driver = "mock"
                      config {
                        run_for = "1h"
                      }
                    }
                  }
                }
                """);

        CliRun run = CliRun.of("job", "run", "-address", addr, job.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("svc.g[0]", "running");
        String prefix = run.out().strip().substring(0, 8);
        assertThat(allocJson(addr, prefix).path("TaskStates").path("web").path("State").asText())
                .isEqualTo("running");
        assertThat(CliRun.of("job", "stop", "-address", addr, "svc").exitCode()).isZero();
    }

    @Test
    void aJsonJobFileIsSentAsItIsAndTheTextShowsEveryLifecycleLabel() throws Exception {
        String addr = agent(AgentTestConfig.write(tmp), "agent").awaitAddress(START);
        Path job = TestConfig.SAMPLES.resolve("lifecycle.json");

        CliRun run = CliRun.of("job", "run", "-address", addr, job.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("lifecycle.app[0]", "complete");
        CliRun text = CliRun.of("alloc", "status", "-address", addr, run.out().strip().substring(0, 8));
        assertThat(text.out()).contains("(prestart sidecar)", "(poststop)", "Client Status       = complete");
    }

    @Test
    void afterKillDashNineEveryRecordSurvivesTheLiveTaskIsNotRecoveredAndTheFinishedOneIsNotRerun()
            throws Exception {
        Path config = AgentTestConfig.write(tmp);
        AgentProcess first = agent(config, "first");
        String addr = first.awaitAddress(START);
        CliRun done = CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "done", "100ms").toString());
        assertThat(done.exitCode()).as(done.err()).isZero();
        String doneId = done.out().strip().substring(0, 8);
        CliRun live = CliRun.of("job", "run", "-detach", "-address", addr,
                AgentTestConfig.job(tmp, "live", "1h").toString());
        assertThat(live.exitCode()).as(live.err()).isZero();
        String liveId = live.out().strip();
        JsonNode liveBefore = awaitState(addr, liveId, "main", "running");
        JsonNode doneBefore = allocJson(addr, doneId);

        first.kill();
        String addr2 = agent(config, "second").awaitAddress(START);

        JsonNode doneAfter = allocJson(addr2, doneId);
        assertThat(doneAfter).as("a finished allocation comes back exactly as it was").isEqualTo(doneBefore);
        JsonNode liveAfter = awaitClientStatusTerminal(addr2, liveId);
        List<String> mainBefore = types(liveBefore, "main");
        List<String> mainAfter = types(liveAfter, "main");
        assertThat(mainAfter.subList(0, mainBefore.size())).as("events recorded before the kill")
                .isEqualTo(mainBefore);
        List<JsonNode> eventsBefore = iterable(liveBefore.path("TaskStates").path("main").path("Events"));
        List<JsonNode> eventsAfter = iterable(liveAfter.path("TaskStates").path("main").path("Events"));
        assertThat(eventsAfter.subList(0, eventsBefore.size())).as("the events before the kill, unchanged")
                .isEqualTo(eventsBefore);
        assertThat(mainAfter).contains("Not Recovered");
        assertThat(liveAfter.path("TaskStates").path("main").path("State").asText()).isEqualTo("dead");
        assertThat(liveAfter.path("TaskStates").path("poststop").path("State").asText()).isEqualTo("dead");
        assertThat(types(liveAfter, "poststop")).contains("Started", "Terminated");
        Thread.sleep(300);
        assertThat(allocJson(addr2, doneId)).as("the finished allocation is not run again").isEqualTo(doneBefore);
        CliRun jobs = CliRun.of("job", "status", "-address", addr2);
        assertThat(jobs.out()).contains("done", "live");
    }

    @Test
    void sigtermStopsTheAgentAndLeavesTasksRunning() throws Exception {
        Path config = AgentTestConfig.write(tmp);
        AgentProcess a = agent(config, "agent");
        String addr = a.awaitAddress(START);
        CliRun live = CliRun.of("job", "run", "-detach", "-address", addr,
                AgentTestConfig.job(tmp, "live", "1h").toString());
        awaitState(addr, live.out().strip(), "main", "running");

        a.terminate();

        assertThat(a.stderr()).contains("tasks are left running")
                .containsPattern("Agent stopped; [12] task\\(s\\) left running"); // main, maybe the pending poststop
        assertThat(a.stderr()).doesNotContain("\tat ");
    }

    @Test
    void clientCommandsWithNoAgentFailAtOnceWithOneLine() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        String addr = "http://127.0.0.1:" + port;
        for (String[] args : List.of(new String[] {"alloc", "status", "-address", addr, "abc"},
                new String[] {"job", "status", "-address", addr},
                new String[] {"system", "gc", "-address", addr},
                new String[] {"plugin", "status", "-address", addr})) {
            long t0 = System.nanoTime();
            CliRun run = CliRun.of(args);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err().lines().toList()).containsExactly("Error: no Drover agent at " + addr
                    + " (connection refused); start one with 'drover agent -config FILE' or set -address/DROVER_ADDR");
            assertThat(run.out()).isEmpty();
        }
    }

    private static JsonNode allocJson(String addr, String id) throws Exception {
        CliRun run = CliRun.of("alloc", "status", "-json", "-address", addr, id);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return JSON.readTree(run.out());
    }

    private static JsonNode awaitState(String addr, String id, String task, String state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            JsonNode a = allocJson(addr, id);
            if (state.equals(a.path("TaskStates").path(task).path("State").asText())) {
                return a;
            }
            assertThat(System.nanoTime()).as("task %s of %s is %s in time", task, id, state).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static JsonNode awaitClientStatusTerminal(String addr, String id) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            JsonNode a = allocJson(addr, id);
            String s = a.path("ClientStatus").asText();
            if (s.equals("complete") || s.equals("failed")) {
                return a;
            }
            assertThat(System.nanoTime()).as("allocation %s terminal in time", id).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static List<String> types(JsonNode alloc, String task) {
        List<String> out = new ArrayList<>();
        alloc.path("TaskStates").path(task).path("Events").forEach(e -> out.add(e.path("Type").asText()));
        return out;
    }

    private static List<JsonNode> iterable(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }
}
