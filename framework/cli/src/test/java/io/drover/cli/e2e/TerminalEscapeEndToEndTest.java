package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
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
 * Finding 12: event messages (a driver failure, a task's exit message) and a job file's bad key reach the
 * terminal through {@code drover run}, {@code alloc status}, {@code job status} and error lines. The attack text
 * sets the window title ({@code ESC ] 0 ; pwned BEL}), clears the screen ({@code ESC [ 2 J}) and fakes a line;
 * every command must print it as visible escapes, with no ESC, BEL or CR byte, and the JSON must keep the text.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TerminalEscapeEndToEndTest {
    private static final String ATTACK = "\u001b]0;pwned\u0007\u001b[2J\r\nClient Status = complete";
    private static final String SHOWN = "\\x1b]0;pwned\\x07\\x1b[2J";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();

    @AfterEach
    void noProcessLeft() throws Exception {
        NoProcessLeft.closeAndAssertNone(agents, tmp);
    }

    /** One task whose driver start fails with the attack text, one whose exit carries it. */
    private Path job() throws Exception {
        String msg = JSON.writeValueAsString(ATTACK);
        return Files.writeString(tmp.resolve("evil.json"), """
                {"Job": {"ID": "evil", "Name": "evil", "Type": "batch", "TaskGroups": [{"Name": "g", "Count": 1,
                  "Tasks": [
                    {"Name": "fails", "Driver": "mock", "Config": {"start_error": %s}},
                    {"Name": "exits", "Driver": "mock", "Config": {"run_for": "10ms", "exit_code": 1,
                      "exit_err_msg": %s}}
                  ]}]}}
                """.formatted(msg, msg));
    }

    @Test
    void droverRunPrintsEventMessagesEscaped() throws Exception {
        Path config = TestConfig.write(tmp);

        CliRun text = CliRun.of("run", "-config", config.toString(), job().toString());
        CliRun json = CliRun.of("run", "-json", "-config", config.toString(), job().toString());

        assertThat(text.exitCode()).as(text.err()).isEqualTo(ExitCodes.FAILED);
        assertNoControlBytes(text);
        assertThat(text.out()).contains("Driver Failure", SHOWN).doesNotContain("\nClient Status = complete");
        assertThat(json.exitCode()).as(json.err()).isEqualTo(ExitCodes.FAILED);
        assertNoControlBytes(json);
        assertThat(JSON.readTree(json.out()).toString()).as("the JSON keeps the text").contains("pwned");
        assertThat(JSON.readTree(json.out()).findValuesAsText("DisplayMessage"))
                .anySatisfy(m -> assertThat(m).contains(ATTACK));
    }

    @Test
    void allocStatusAndJobStatusPrintEventMessagesEscaped() throws Exception {
        String addr = agent().awaitAddress(Duration.ofSeconds(30));

        CliRun run = CliRun.of("job", "run", "-address", addr, job().toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        String prefix = run.out().strip().substring(0, 8);
        CliRun text = CliRun.of("alloc", "status", "-address", addr, prefix);
        CliRun json = CliRun.of("alloc", "status", "-json", "-address", addr, prefix);
        CliRun jobs = CliRun.of("job", "status", "-address", addr, "evil");

        assertNoControlBytes(run);
        assertNoControlBytes(text);
        assertThat(text.out()).contains("Driver Failure", SHOWN);
        assertNoControlBytes(json);
        assertThat(JSON.readTree(json.out()).findValuesAsText("DisplayMessage"))
                .anySatisfy(m -> assertThat(m).contains(ATTACK));
        assertThat(jobs.exitCode()).as(jobs.err()).isZero();
        assertNoControlBytes(jobs);
    }

    @Test
    void anErrorLineQuotingAJobFilesKeyIsEscaped() throws Exception {
        Path config = TestConfig.write(tmp);
        Path bad = Files.writeString(tmp.resolve("bad.json"), """
                {"Job": {"ID": "bad", "Type": "batch", "\\u001b]0;pwned\\u0007\\u001b[2J": 1, "TaskGroups": [
                  {"Name": "g", "Tasks": [{"Name": "t", "Driver": "mock"}]}]}}
                """);

        CliRun run = CliRun.of("run", "-config", config.toString(), bad.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertNoControlBytes(run);
        assertThat(run.errorLines()).anySatisfy(l -> assertThat(l).contains("bad.json", "pwned"));
    }

    private AgentProcess agent() throws Exception {
        AgentProcess a = AgentProcess.start(AgentTestConfig.write(tmp), tmp.resolve("agent.err"));
        agents.add(a);
        return a;
    }

    /** No ESC, BEL, CR or other C0 control but newline in what a command printed (stdout and stderr). */
    private static void assertNoControlBytes(CliRun run) {
        String all = run.out() + run.err();
        assertThat(all.chars().filter(c -> c < 0x20 && c != '\n').mapToObj(c -> String.format("\\x%02x", c))
                .distinct().toList()).as("control characters printed:%n%s", all).isEmpty();
    }
}
