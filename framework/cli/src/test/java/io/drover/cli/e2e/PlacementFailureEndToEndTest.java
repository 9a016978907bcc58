package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 7, against a real agent child JVM: "no failure after placement can lose a state that was
 * shown". A task name with a NUL is refused at once (the old agent placed it, wedged the allocation unrecorded,
 * held the PUT 30 s, answered 503, and lost the job at a {@code kill -9}). Then a failure injected after placement
 * — the task directory cannot be created, because the data_dir is so deep that its path passes PATH_MAX while the
 * allocation's shared directory still fits — fails the task with a {@code Setup Failure} event; the failed state
 * the API showed survives a {@code kill -9} and a restart on the same data_dir, as does its job.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PlacementFailureEndToEndTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration WAIT = Duration.ofSeconds(30);
    /** Long enough that data_dir/alloc/ID/TASK/secrets passes PATH_MAX (4096), short enough for alloc/logs. */
    private static final int DATA_DIR_LENGTH = 3990;
    private static final String LONG_TASK = "t".repeat(100);

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

    /** A data_dir path of exactly {@link #DATA_DIR_LENGTH} characters under the test's directory. */
    private Path deepDataDir() throws Exception {
        StringBuilder p = new StringBuilder(tmp.toAbsolutePath().toString());
        while (p.length() < DATA_DIR_LENGTH) {
            int left = DATA_DIR_LENGTH - p.length() - 1;
            p.append('/').append("d".repeat(Math.min(200, Math.max(1, left))));
        }
        Path dir = Path.of(p.toString());
        assertThat(dir.toString()).hasSize(DATA_DIR_LENGTH);
        return Files.createDirectories(dir);
    }

    private Path config(Path data) throws Exception {
        return Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                log_level  = "INFO"
                ports {
                  http = 0
                }
                """.formatted(data, System.getProperty("drover.test.plugins")));
    }

    private static String job(String id, String task) throws Exception {
        return JSON.writeValueAsString(Map.of("Job", Map.of("ID", id, "Type", "batch", "TaskGroups", List.of(
                Map.of("Name", "g", "RestartPolicy", Map.of("Attempts", 0, "Mode", "fail"), "Tasks", List.of(
                        Map.of("Name", task, "Driver", "mock", "Config", Map.of("run_for", "10ms")),
                        Map.of("Name", "c", "Driver", "mock", "Lifecycle", Map.of("Hook", "poststop"),
                                "Config", Map.of("run_for", "10ms"))))))));
    }

    @Test
    void aFailureAfterPlacementFailsTheTaskWithAnEventThatSurvivesKillDashNine() throws Exception {
        Path config = config(deepDataDir());
        AgentProcess first = agent(config, "first");
        String addr = first.awaitAddress(START);

        long t0 = System.nanoTime();
        HttpResponse<String> nul = AgentApi.send("PUT", addr + "/v1/jobs", job("nul", "a\u0000b"));
        assertThat(nul.statusCode()).as(nul.body()).isEqualTo(400);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms to answer").isLessThan(5_000);
        assertThat(JSON.readTree(nul.body()).path("error").asText())
                .contains("task \"a\\u0000b\": the task name must not contain a NUL character");

        HttpResponse<String> put = AgentApi.send("PUT", addr + "/v1/jobs", job("deep", LONG_TASK));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
        String id = JSON.readTree(put.body()).path("Allocations").get(0).asText();
        JsonNode failed = Poll.until("allocation failed", WAIT, () -> AgentApi.alloc(addr, id),
                a -> a.path("ClientStatus").asText().equals("failed"));
        List<JsonNode> events = AgentApi.events(failed, LONG_TASK);
        assertThat(events).extracting(e -> e.path("Type").asText())
                .containsExactly("Received", "Task Setup", "Setup Failure");
        assertThat(events.get(2).path("DisplayMessage").asText()).startsWith("failed to build task directory: ")
                .contains("File name too long");
        assertThat(events.get(2).path("FailsTask").asBoolean()).isTrue();
        assertThat(AgentApi.state(failed, LONG_TASK)).isEqualTo("dead");
        assertThat(AgentApi.state(failed, "c")).isEqualTo("dead"); // the poststop task still ran
        assertThat(first.process().isAlive()).isTrue();

        first.kill();
        AgentProcess second = agent(config, "second");
        String addr2 = second.awaitAddress(START);

        assertThat(AgentApi.alloc(addr2, id)).isEqualTo(failed);
        HttpResponse<String> jobs = AgentApi.send("GET", addr2 + "/v1/jobs", null);
        assertThat(JSON.readTree(jobs.body())).extracting(j -> j.path("ID").asText()).containsExactly("deep");
        assertThat(second.stderr()).doesNotContain("InvalidPathException", "engine bug");
        assertThat(first.stderr()).doesNotContain("InvalidPathException", "engine bug");
    }
}
