package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sample-jobs/max-runtime.hcl} through {@code drover run} with real raw_exec processes: the task over its
 * max_runtime gets a Max Runtime Exceeded event, is escalated to SIGKILL, fails without a restart, and the
 * poststop task learns it. Proves no process is left.
 */
class MaxRuntimeSampleEndToEndTest {
    private static final long MS = 1_000_000L;

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

    @Test
    void theSlowTaskIsKilledAtItsLimitFailsAndIsNotRestarted() throws Exception {
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(),
                TestConfig.SAMPLES.resolve("max-runtime.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        JsonNode alloc = Allocs.single(run);
        assertThat(alloc.path("ClientStatus").asText()).isEqualTo("failed");
        JsonNode slow = alloc.path("TaskStates").path("slow");
        assertThat(slow.path("Failed").asBoolean()).isTrue();
        assertThat(slow.path("Restarts").asInt()).isZero();
        assertThat(Allocs.types(slow)).containsExactly("Received", "Task Setup", "Started", "Max Runtime Exceeded",
                "Killing", "Terminated", "Killed");
        JsonNode exceeded = Allocs.event(alloc, "slow", "Max Runtime Exceeded");
        assertThat(exceeded.path("Details").path("max_runtime").asText()).isEqualTo("1s");
        assertThat(exceeded.path("Details").path("run_time").asText()).isNotEmpty();
        long late = Allocs.first(alloc, "slow", "Max Runtime Exceeded") - Allocs.first(alloc, "slow", "Started");
        assertThat(late).isBetween(1_000 * MS, 3_000 * MS);
        JsonNode terminated = Allocs.event(alloc, "slow", "Terminated");
        assertThat(terminated.path("ExitCode").asInt()).isEqualTo(137);
        assertThat(terminated.path("Signal").asInt()).isEqualTo(9);
        long grace = Allocs.first(alloc, "slow", "Terminated") - Allocs.first(alloc, "slow", "Killing");
        assertThat(grace).isGreaterThanOrEqualTo(500 * MS);

        JsonNode report = alloc.path("TaskStates").path("report");
        assertThat(report.path("Failed").asBoolean()).isFalse();
        assertThat(Allocs.first(alloc, "report", "Started")).isGreaterThanOrEqualTo(
                Allocs.first(alloc, "slow", "Killed"));
    }

    @Test
    void thePoststopTaskPrintsTheResult() {
        CliRun run = CliRun.of("run", "-verbose", "-config", config.toString(),
                TestConfig.SAMPLES.resolve("max-runtime.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.out()).contains("Max Runtime Exceeded", "result=failed failed=slow", "\"ExitCode\" : 137");
    }
}
