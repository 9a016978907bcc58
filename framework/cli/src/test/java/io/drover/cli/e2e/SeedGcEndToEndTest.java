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
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed (Nomad's poststop/GC issue), replayed with a real agent child process and the real CLI: an agent with
 * {@code gc_max_allocs = 1} and raw_exec, {@code job run} of the seed's job_spec.hcl, {@code alloc status -json}
 * (the seed's {@code jq .TaskStates.poststop}), a second job to force GC, the same query again. Then the same
 * with a poststop task that ignores SIGTERM under each kill policy. No process is left after any test.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SeedGcEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    private AgentProcess agent;

    @AfterEach
    void nothingLeft() throws Exception {
        if (agent != null) {
            agent.close();
        }
        assertThat(NoProcessLeft.under(tmp)).isEmpty();
    }

    private String startAgent(String policy) throws Exception {
        return startAgent(policy, "");
    }

    /** @param extra more client keys */
    private String startAgent(String policy, String extra) throws Exception {
        Path config = Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                ports {
                  http = 0
                }
                client {
                  gc_max_allocs  = 1
                  gc_kill_policy = "%s"
                  %s
                }
                plugin "raw_exec" {
                  config {
                    enabled = true
                  }
                }
                """.formatted(tmp.resolve("data"), System.getProperty("drover.test.plugins"), policy, extra));
        agent = AgentProcess.start(config, tmp.resolve("agent.err"));
        return agent.awaitAddress(Duration.ofSeconds(30));
    }

    @Test
    void theSeedsPoststopTaskKeepsItsStateAndEveryEventAfterGc() throws Exception {
        String addr = startAgent("preserve_states");
        CliRun run = CliRun.of("job", "run", "-address", addr, TestConfig.SAMPLES.resolve("poststop.hcl").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String id = run.out().strip().substring(0, 8);
        JsonNode before = alloc(addr, id);
        JsonNode poststopBefore = before.path("TaskStates").path("poststop");
        assertThat(poststopBefore.path("State").asText()).isEqualTo("dead");
        assertThat(types(poststopBefore)).containsExactly("Received", "Task Setup", "Started", "Terminated");
        String allocDir = tmp.resolve("data").resolve("alloc").resolve(before.path("ID").asText()).toString();
        assertThat(Path.of(allocDir)).isDirectory();

        CliRun second = CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "second", "10ms")
                .toString());
        assertThat(second.exitCode()).as(second.err()).isZero();
        JsonNode after = await(addr, id, a -> types(a.path("TaskStates").path("poststop"))
                .contains("Garbage Collected"));

        for (String task : List.of("test-task", "poststop")) {
            JsonNode b = before.path("TaskStates").path(task);
            JsonNode a = after.path("TaskStates").path(task);
            assertThat(a.path("State").asText()).as(task).isEqualTo("dead");
            assertThat(a.path("StartedAt").isNull()).isFalse();
            assertThat(a.path("StartedAt")).isEqualTo(b.path("StartedAt"));
            assertThat(a.path("FinishedAt")).isEqualTo(b.path("FinishedAt"));
            assertThat(a.path("Failed").asBoolean()).isFalse();
            assertThat(events(a).subList(0, events(b).size())).as("every earlier event").isEqualTo(events(b));
            JsonNode gc = last(a);
            assertThat(gc.path("Type").asText()).isEqualTo("Garbage Collected");
            assertThat(gc.path("Details").path("gc_trigger").asText()).isEqualTo("max allocs");
            assertThat(gc.path("Details").path("gc_kill_policy").asText()).isEqualTo("preserve_states");
        }
        assertThat(after.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(Path.of(allocDir)).doesNotExist();
        CliRun text = CliRun.of("alloc", "status", "-verbose", "-address", addr, id);
        assertThat(text.out()).contains("Task \"poststop\" (poststop) is \"dead\"", "Garbage Collected");
    }

    @Test
    void preserveStates_aTermIgnoringPoststopIsNotKilledAndKeepsItsAllocationOutOfGc() throws Exception {
        String addr = startAgent("preserve_states");
        Path job = Files.writeString(tmp.resolve("stubborn.hcl"), Files.readString(
                TestConfig.SAMPLES.resolve("gc-kill-poststop.hcl")).replace("sleep 60", "sleep 3"));
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String id = run.out().strip();
        await(addr, id, a -> a.path("TaskStates").path("poststop").path("State").asText().equals("running"));

        CliRun second = CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "second", "10ms")
                .toString());
        assertThat(second.exitCode()).as(second.err()).isZero();
        JsonNode kept = alloc(addr, id);
        assertThat(kept.path("ClientStatus").asText()).isEqualTo("running");
        assertThat(types(kept.path("TaskStates").path("poststop"))).doesNotContain("Killing", "Garbage Collected");
        assertThat(agent.stderr()).contains("garbage collection skipped because no terminal allocations",
                "number of allocations (2) is over the limit (1)");

        JsonNode done = await(addr, id, a -> a.path("ClientStatus").asText().equals("complete"));
        JsonNode poststop = done.path("TaskStates").path("poststop");
        assertThat(types(poststop)).containsExactly("Received", "Task Setup", "Started", "Terminated");
        assertThat(last(poststop).path("ExitCode").asInt()).as("ran to its end").isZero();

        assertThat(CliRun.of("system", "gc", "-address", addr).exitCode()).isZero();
        JsonNode after = await(addr, id, a -> types(a.path("TaskStates").path("poststop"))
                .contains("Garbage Collected"));
        assertThat(events(after.path("TaskStates").path("poststop")).subList(0, 4)).isEqualTo(events(poststop));
    }

    @Test
    void killPoststop_gcKillsATermIgnoringPoststopWithSigkillAfterKillTimeoutThenCollectsItKeepingState()
            throws Exception {
        String addr = startAgent("kill_poststop");
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr,
                TestConfig.SAMPLES.resolve("gc-kill-poststop.hcl").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String id = run.out().strip();
        JsonNode running = await(addr, id,
                a -> a.path("TaskStates").path("poststop").path("State").asText().equals("running"));

        CliRun second = CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "second", "10ms")
                .toString());
        assertThat(second.exitCode()).as(second.err()).isZero();
        JsonNode after = await(addr, id, a -> types(a.path("TaskStates").path("poststop"))
                .contains("Garbage Collected"));

        JsonNode poststop = after.path("TaskStates").path("poststop");
        assertThat(poststop.path("State").asText()).isEqualTo("dead");
        assertThat(poststop.path("StartedAt")).isEqualTo(running.path("TaskStates").path("poststop")
                .path("StartedAt"));
        assertThat(types(poststop)).containsExactly("Received", "Task Setup", "Started", "Killing", "Terminated",
                "Killed", "Garbage Collected");
        JsonNode terminated = event(poststop, "Terminated");
        assertThat(terminated.path("Signal").asInt()).isEqualTo(9);
        assertThat(terminated.path("ExitCode").asInt()).isEqualTo(137);
        long waited = terminated.path("Time").asLong() - event(poststop, "Killing").path("Time").asLong();
        assertThat(waited).as("SIGKILL after kill_timeout").isGreaterThanOrEqualTo(2_000_000_000L);
        assertThat(event(poststop, "Killing").path("Details").path("kill_signal").asText()).isEqualTo("SIGTERM");
        assertThat(last(poststop).path("Details").path("gc_kill_policy").asText()).isEqualTo("kill_poststop");
        assertThat(events(poststop).subList(0, 3)).isEqualTo(events(running.path("TaskStates").path("poststop"))
                .subList(0, 3));
        assertThat(after.path("TaskStates").path("test-task").path("State").asText()).isEqualTo("dead");
        assertThat(types(after.path("TaskStates").path("test-task")))
                .containsExactly("Received", "Task Setup", "Started", "Terminated", "Garbage Collected");
    }

    @Test
    void killPoststop_allocStopKillsARunningPoststopWithEscalation() throws Exception {
        String addr = startAgent("kill_poststop");
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr,
                TestConfig.SAMPLES.resolve("gc-kill-poststop.hcl").toString());
        String id = run.out().strip();
        await(addr, id, a -> a.path("TaskStates").path("poststop").path("State").asText().equals("running"));

        CliRun stop = CliRun.of("alloc", "stop", "-address", addr, id.substring(0, 8));
        assertThat(stop.exitCode()).as(stop.err()).isZero();
        JsonNode done = await(addr, id, a -> a.path("ClientStatus").asText().equals("complete"));

        JsonNode poststop = done.path("TaskStates").path("poststop");
        assertThat(types(poststop)).containsExactly("Received", "Task Setup", "Started", "Killing", "Terminated",
                "Killed");
        assertThat(event(poststop, "Terminated").path("Signal").asInt()).isEqualTo(9);
        assertThat(event(poststop, "Killing").path("DisplayMessage").asText())
                .contains("allocation stopped", "kill_poststop");
    }

    @Test
    void aCollectedRecordIsPurgedAfterRecordRetention() throws Exception {
        String addr = startAgent("preserve_states", "gc_interval = \"200ms\"\n  record_retention = \"1s\"");
        CliRun run = CliRun.of("job", "run", "-address", addr, TestConfig.SAMPLES.resolve("poststop.hcl").toString());
        String id = run.out().strip().substring(0, 8);
        assertThat(CliRun.of("system", "gc", "-address", addr).exitCode()).isZero();
        await(addr, id, a -> types(a.path("TaskStates").path("poststop")).contains("Garbage Collected"));

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        CliRun gone;
        do {
            Thread.sleep(100);
            gone = CliRun.of("alloc", "status", "-json", "-address", addr, id);
        } while (gone.exitCode() == 0 && System.nanoTime() < deadline);
        assertThat(gone.exitCode()).as("purged after record_retention").isNotZero();
        assertThat(gone.err()).contains(id);
        assertThat(CliRun.of("job", "status", "-address", addr).out()).doesNotContain("example");
        assertThat(agent.stderr()).contains("purged 1 garbage-collected allocation record(s)");
    }

    private static JsonNode alloc(String addr, String id) throws Exception {
        CliRun run = CliRun.of("alloc", "status", "-json", "-address", addr, id);
        assertThat(run.exitCode()).as(run.err()).isZero();
        return JSON.readTree(run.out());
    }

    private static JsonNode await(String addr, String id, Predicate<JsonNode> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            JsonNode a = alloc(addr, id);
            if (condition.test(a)) {
                return a;
            }
            assertThat(System.nanoTime()).as("allocation %s in time: %s", id, a).isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static List<String> types(JsonNode taskState) {
        List<String> out = new ArrayList<>();
        taskState.path("Events").forEach(e -> out.add(e.path("Type").asText()));
        return out;
    }

    private static List<JsonNode> events(JsonNode taskState) {
        List<JsonNode> out = new ArrayList<>();
        taskState.path("Events").forEach(out::add);
        return out;
    }

    private static JsonNode last(JsonNode taskState) {
        List<JsonNode> all = events(taskState);
        return all.get(all.size() - 1);
    }

    private static JsonNode event(JsonNode taskState, String type) {
        return events(taskState).stream().filter(e -> e.path("Type").asText().equals(type)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type + " event: " + taskState));
    }
}
