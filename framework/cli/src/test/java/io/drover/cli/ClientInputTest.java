package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input is refused before anything is sent or started: one line, exit code 2. */
class ClientInputTest {
    @TempDir
    Path tmp;

    @Test
    void jobRunParsesTheFileFirstAndNamesFileAndLine() throws Exception {
        Path job = Files.writeString(tmp.resolve("bad.hcl"),
                "job \"x\" {\n  group \"g\" {\n    count = \"two\"\n    task \"t\" {\n      driver = \"mock\"\n    }\n  }\n}\n");

        CliRun run = CliRun.of("job", "run", "-address", "http://127.0.0.1:1", job.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).hasSize(1);
        assertThat(run.errorLines().get(0)).startsWith("Error: " + job + ":3:").doesNotContain("no Drover agent");
    }

    @Test
    void aTokenThatCannotBeAHeaderIsRefusedBeforeAnythingIsSent() {
        // a line break in the token would have started a second header of the request
        CliRun run = CliRun.of("job", "status", "-address", "http://127.0.0.1:1", "-token", "abc\r\nX-Other: 1");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().toList()).containsExactly("Error: the API token (-token or DROVER_TOKEN) "
                + "contains a character that cannot be sent in an HTTP header (position 4)");
    }

    @Test
    void jobRunReportsEveryProblemOfTheFileOnItsOwnLine() throws Exception {
        Path job = Files.writeString(tmp.resolve("two-bad.hcl"), "job \"j\" {\n  group \"g\" {\n    task \"a\" {\n"
                + "      kill_timeout = \"5sec\"\n      driver = \"mock\"\n    }\n    task \"b\" {\n      colour = 1\n"
                + "      driver = \"mock\"\n    }\n  }\n}\n");

        CliRun run = CliRun.of("job", "run", "-address", "http://127.0.0.1:1", job.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).satisfiesExactly(
                l -> assertThat(l).startsWith("Error: " + job + ":4: job \"j\" > group \"g\" > task \"a\" > kill_timeout: "),
                l -> assertThat(l).startsWith("Error: " + job + ":8: job \"j\" > group \"g\" > task \"b\" > colour: "));
    }

    @Test
    void agentWithABadConfigDoesNotStart() throws Exception {
        Path config = Files.writeString(tmp.resolve("agent.hcl"),
                "data_dir = \"" + tmp + "\"\nports {\n  http = -1\n}\n");

        CliRun run = CliRun.of("agent", "-config", config.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().toList())
                .containsExactly("Error: " + config + ":3: ports > http: must not be negative (got -1)");
    }

    @Test
    void agentWithoutConfigOrDevIsAUsageError() {
        CliRun run = CliRun.of("agent");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).containsExactly(
                "Error: the agent needs -config FILE (or -dev for a throw-away agent)");
    }
}
