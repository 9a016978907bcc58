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
 * The sample jobs that run real processes through raw_exec (enabled by drover run's dev mode), run through the
 * CLI in-process with the plugin JARs the build copies into target/test-plugins. Each test proves no process
 * is left.
 */
class RawExecSamplesEndToEndTest {

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

    private CliRun runJson(String sample) {
        return CliRun.of("run", "-json", "-config", config.toString(), TestConfig.SAMPLES.resolve(sample).toString());
    }

    @Test
    void theSeedsJobSpecRunsAsWrittenAndBothTasksEndDead() throws Exception {
        CliRun run = runJson("poststop.hcl");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        for (String task : new String[] {"test-task", "poststop"}) {
            JsonNode state = alloc.path("TaskStates").path(task);
            assertThat(state.path("State").asText()).isEqualTo("dead");
            assertThat(state.path("Failed").asBoolean()).isFalse();
            assertThat(state.path("StartedAt").isNull()).isFalse();
            assertThat(Allocs.types(state)).containsExactly("Received", "Task Setup", "Started", "Terminated");
        }
        assertThat(Allocs.first(alloc, "poststop", "Started"))
                .isGreaterThanOrEqualTo(Allocs.first(alloc, "test-task", "Terminated"));
    }

    @Test
    void aTermIgnoringTaskIsKilledWithSigkillAfterItsKillTimeout() throws Exception {
        CliRun run = runJson("kill-escalation.hcl");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        JsonNode stubborn = Allocs.event(alloc, "stubborn", "Terminated");
        assertThat(stubborn.path("ExitCode").asInt()).isEqualTo(137);
        assertThat(stubborn.path("Signal").asInt()).isEqualTo(9);
        assertThat(stubborn.path("DisplayMessage").asText()).startsWith("Exit Code: 137, Signal: 9");
        long waited = Allocs.first(alloc, "stubborn", "Terminated") - Allocs.first(alloc, "stubborn", "Killing");
        assertThat(waited).isGreaterThanOrEqualTo(500_000_000L);
        assertThat(Allocs.types(alloc.path("TaskStates").path("stubborn"))).contains("Leader Task Dead", "Killing",
                "Terminated", "Killed");
        assertThat(Allocs.first(alloc, "report", "Started"))
                .isGreaterThanOrEqualTo(Allocs.first(alloc, "stubborn", "Killed"));
    }

    @Test
    void verboseTextShowsTheLastLinesOfEachTasksOutput() {
        CliRun run = CliRun.of("run", "-verbose", "-config", config.toString(),
                TestConfig.SAMPLES.resolve("kill-escalation.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        String report = run.out().substring(run.out().indexOf("Task \"report\" (poststop)"),
                run.out().indexOf("Task \"stubborn\""));
        assertThat(report).contains("Last stdout lines:", "result=success", "\"ExitCode\" : 137");
        String leader = run.out().substring(run.out().indexOf("Task \"leader\""),
                run.out().indexOf("Task \"report\""));
        assertThat(leader).contains("Last stdout lines:\nleader done\n");
    }
}
