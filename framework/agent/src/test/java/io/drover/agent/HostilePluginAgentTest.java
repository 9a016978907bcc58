package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.agent.hostile.BlockingStartPlugin;
import io.drover.agent.hostile.HostileDriver;
import io.drover.core.config.ClientConfig;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import io.drover.core.testing.PluginJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 13 replayed against a real agent that loads a third party's hostile plugin JAR (built here) beside
 * the mock plugin: 17 concurrent {@code GET /v1/plugins} while its health() blocks (they took the API down) all
 * answer within the health limit, naming the plugin; a job whose validateConfig blocks gets a 400 naming the
 * driver (the PUT was reset); a task whose start throws an Error fails at once with it, well before
 * driver_start_timeout (it waited for it), and the next one too. The API keeps serving throughout. A plugin whose
 * {@code Plugin.start()} blocks (the agent's start waited for it) is skipped after 10 s with a line naming it.
 */
class HostilePluginAgentTest {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    private static String job(String id, String mode) {
        return """
                {"Job": {"ID": "%s", "Name": "%s", "Type": "batch", "Datacenters": ["dc1"],
                  "TaskGroups": [{"Name": "g", "Count": 1, "RestartPolicy": {"Attempts": 0, "Mode": "fail"},
                    "Tasks": [{"Name": "t", "Driver": "hostile", "Config": {"mode": "%s"}}]}]}}
                """.formatted(id, id, mode);
    }

    @Test
    void aHostilePluginCannotTakeTheApiDownNorHoldItsTasks() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        PluginJar.plugin("hostile-plugin").attribute("Plugin-Provider", "A Third Party")
                .classesOf(HostileDriver.class).extension(HostileDriver.class)
                .writeTo(plugins.resolve("hostile-plugin.jar"));
        ClientConfig client = new ClientConfig(Duration.ofMinutes(1), 1000, 100, 100, 2,
                io.drover.core.config.GcKillPolicy.PRESERVE_STATES, Duration.ofSeconds(30), Duration.ofHours(24),
                START_TIMEOUT);
        try (TestAgent api = TestAgent.start(tmp, null, null, client)) {
            assertThat(api.agent.pluginProblems()).isEmpty();

            long t0 = System.nanoTime();
            List<CompletableFuture<TestAgent.Resp>> calls = new ArrayList<>();
            for (int i = 0; i < 17; i++) {
                calls.add(CompletableFuture.supplyAsync(() -> call(() -> api.get("/v1/plugins"))));
            }
            for (CompletableFuture<TestAgent.Resp> c : calls) {
                TestAgent.Resp r = c.get(30, TimeUnit.SECONDS);
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                JsonNode hostile = null;
                for (JsonNode p : r.json()) {
                    if (p.path("Name").asText().equals("hostile")) {
                        hostile = p;
                    }
                }
                assertThat(hostile).as(r.body()).isNotNull();
                assertThat(hostile.path("Health").asText()).isEqualTo("undetected");
                assertThat(hostile.path("HealthDescription").asText()).startsWith("health check of driver "
                        + "\"hostile\" (plugin \"hostile-plugin\") did not answer within 2s");
            }
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0)).as("17 calls, one limit")
                    .isLessThan(15);
            assertThat(api.get("/v1/agent/health").status()).isEqualTo(200);

            TestAgent.Resp refused = api.call("PUT", "/v1/jobs", job("blocks-validate", "block_validate"));
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.error()).contains("driver \"hostile\" did not check the config within 3s");

            for (String id : List.of("error-start", "error-start-2")) {
                TestAgent.Resp r = api.call("PUT", "/v1/jobs", job(id, "error_start"));
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                String alloc = r.json().path("Allocations").get(0).asText();
                Await.until(id + " fails", Duration.ofSeconds(30),
                        () -> api.alloc(alloc).clientStatus() == ClientStatus.FAILED);
                TaskState t = api.alloc(alloc).taskStates().get("t");
                TaskEvent setup = t.events().stream().filter(e -> e.type() == TaskEventType.TASK_SETUP)
                        .findFirst().orElseThrow();
                TaskEvent failure = t.events().stream().filter(e -> e.type() == TaskEventType.DRIVER_FAILURE)
                        .findFirst().orElseThrow(() -> new AssertionError("no Driver Failure in " + t.events()));
                assertThat(failure.displayMessage()).contains("StackOverflowError: hostile plugin: start recursed");
                assertThat((failure.time() - setup.time()) / 1_000_000).as("failed at once, not after "
                        + START_TIMEOUT).isLessThan(10_000);
            }
            assertThat(api.agent.storeFailure()).isEmpty();
        }
        Await.until("the plugin's blocked calls are released at shutdown", () -> Thread.getAllStackTraces()
                .keySet().stream().noneMatch(t -> t.isAlive() && (t.getName().startsWith("drover-health-")
                        || t.getName().startsWith("drover-driver-hostile"))));
        assertThat(ProcessHandle.current().children().toList()).as("no process left").isEmpty();
    }

    @Test
    void aPluginWhoseStartBlocksIsSkippedAfterTenSecondsNamingIt() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Path jar = PluginJar.plugin("slow-start").attribute("Plugin-Class", BlockingStartPlugin.class.getName())
                .classesOf(HostileDriver.class).extension(HostileDriver.class).writeTo(plugins.resolve("slow.jar"));

        long t0 = System.nanoTime();
        // bounded here too: on a loader that waits for the plugin, the start never returns
        CompletableFuture<TestAgent> start = CompletableFuture.supplyAsync(() -> call(() -> TestAgent.start(tmp)));
        try (TestAgent api = start.get(60, TimeUnit.SECONDS)) {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertThat(ms).as("one limit, not a hang").isBetween(10_000L, 40_000L);
            assertThat(api.agent.pluginProblems()).containsExactly(jar + ": Plugin.start() of plugin \"slow-start\" "
                    + "did not return within 10s: the agent starts without it; skipped");
            assertThat(api.agent.drivers()).extracting(d -> d.name()).containsExactly("mock");
        }
        Await.until("the abandoned start is interrupted and ends", () -> Thread.getAllStackTraces().keySet().stream()
                .noneMatch(t -> t.isAlive() && t.getName().startsWith("drover-plugin-start-")));
    }

    private interface Call<T> {
        T run() throws Exception;
    }

    private static <T> T call(Call<T> c) {
        try {
            return c.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
