package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover run} reschedules a failed allocation as the agent does (issue 16): real raw_exec processes, the
 * CLI in-process. The task fails the first time (it makes a directory outside its allocation, which only the first
 * run can), so the replacement completes; the run waits for it and its exit code is the lineage's last outcome.
 * Each test proves no process is left.
 */
class RunRescheduleEndToEndTest {
    @TempDir
    Path dir;
    private Path config;

    @BeforeEach
    void writeConfig() throws Exception {
        config = TestConfig.write(dir);
    }

    @AfterEach
    void nothingLeftRunning() {
        assertThat(NoProcessLeft.under(dir)).isEmpty();
    }

    private Path job(String reschedule, String script) throws Exception {
        return Files.writeString(dir.resolve("job.hcl"), """
                job "flaky" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    reschedule {
                      %s
                    }
                    task "t" {
                      driver = "raw_exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "%s"]
                      }
                    }
                  }
                }
                """.formatted(reschedule, script));
    }

    private static List<JsonNode> allocs(CliRun run) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        new ObjectMapper().readTree(run.out()).forEach(out::add);
        return out;
    }

    private static long nanos(JsonNode time) {
        Instant i = Instant.parse(time.asText());
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    @Test
    void aFailedAllocationIsReplacedAfterItsDelayAndTheRunEndsWithTheReplacementsOutcome() throws Exception {
        Path once = dir.resolve("once");
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), job("""
                attempts       = 2
                interval       = "1h"
                delay          = "1s"
                delay_function = "constant"
                unlimited      = false""", "mkdir " + once + " 2>/dev/null && exit 3; exit 0").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        List<JsonNode> allocs = allocs(run);
        assertThat(allocs).hasSize(2);
        JsonNode failed = allocs.get(0);
        JsonNode next = allocs.get(1);
        assertThat(failed.path("ClientStatus").asText()).isEqualTo("failed");
        assertThat(next.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(next.path("Name").asText()).isEqualTo(failed.path("Name").asText()).isEqualTo("flaky.g[0]");
        assertThat(failed.path("NextAllocation").asText()).isEqualTo(next.path("ID").asText());
        assertThat(next.path("PreviousAllocation").asText()).isEqualTo(failed.path("ID").asText());
        assertThat(failed.path("RescheduleTracker").isNull()).isTrue();
        JsonNode event = next.path("RescheduleTracker").path("Events").get(0);
        assertThat(event.path("PrevAllocID").asText()).isEqualTo(failed.path("ID").asText());
        assertThat(event.path("Delay").asLong()).isEqualTo(1_000_000_000L);
        // the delay counts from the failure: the replacement was placed no sooner than 1 s after the task died
        long diedAt = nanos(failed.path("TaskStates").path("t").path("FinishedAt"));
        assertThat(event.path("RescheduleTime").asLong() - diedAt).isGreaterThanOrEqualTo(1_000_000_000L);
        assertThat(run.err()).contains("==> Allocation \"" + failed.path("ID").asText()
                + "\" (flaky.g[0]) failed: rescheduled as \"" + next.path("ID").asText()
                + "\" (reschedule attempt 1, after 1s)");
    }

    @Test
    void attemptsUsedUpEndTheRunFailedAndTheTextShowsTheLineage() throws Exception {
        CliRun run = CliRun.of("run", "-config", config.toString(), job("""
                attempts = 1
                interval = "1h"
                delay    = "0s\"""", "exit 3").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        List<String> ids = run.out().lines().filter(l -> l.startsWith("ID ")).map(l -> l.split("= ")[1]).toList();
        assertThat(ids).as(run.out()).hasSize(2); // the first and its one replacement: attempts = 1
        assertThat(run.out()).containsPattern("Replacement Alloc ID +=\\s" + ids.get(1))
                .containsPattern("Previous Allocation +=\\s" + ids.get(0))
                .containsPattern("Reschedule Attempts +=\\s1/1");
        assertThat(run.out().split("Client Status  *= failed", -1)).hasSize(3);
    }

    @Test
    void withoutAReschedulePolicyABatchAllocationIsReplacedOnceAsNomadsDefaultSays() throws Exception {
        // Nomad's batch default: 1 attempt in 24 h, 5 s constant delay; unlimited = false, attempts = 0: never
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), job("""
                attempts  = 0
                unlimited = false""", "exit 3").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        List<JsonNode> allocs = allocs(run);
        assertThat(allocs).hasSize(1);
        assertThat(allocs.get(0).path("NextAllocation").asText()).isEmpty();
        assertThat(run.err()).doesNotContain("rescheduled as");
    }
}
