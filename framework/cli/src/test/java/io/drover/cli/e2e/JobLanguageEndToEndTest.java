package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job language through the real commands: {@code job validate} (in-process, the real plugins), and
 * {@code job run -var -var-file} against a real agent in a child JVM: the job is evaluated on this side
 * ({@code file()} reads beside the job file), the agent runs the evaluated job, and the agent's own problems
 * name the user's file and line.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JobLanguageEndToEndTest {
    private static final Duration START = Duration.ofSeconds(30);
    private static final String JOB = """
            variable "greeting" {
              type = string
            }
            variable "times" {
              type    = number
              default = 1
            }
            locals {
              words = [for i in range(var.times) : upper(var.greeting)]
            }
            job "lang" {
              type = "batch"
              group "g" {
                task "t" {
                  driver = "raw_exec"
                  config {
                    command = "/bin/sh"
                    args    = ["-c", "echo ${join(" ", local.words)} ${trimspace(file("note.txt"))}"]
                  }
                }
              }
            }
            """;

    @TempDir
    Path tmp;

    private AgentProcess agent;

    @AfterEach
    void stopAgent() throws Exception {
        if (agent != null) {
            agent.close();
            assertThat(agent.process().isAlive()).isFalse();
        }
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count())
                .as("processes left behind").isZero();
    }

    @Test
    void validateReportsSuccessOrEveryProblemOneLineEach() throws Exception {
        Path good = Files.writeString(tmp.resolve("good.hcl"), JOB);
        Files.writeString(tmp.resolve("note.txt"), "from the file\n");
        CliRun ok = CliRun.of("job", "validate", "-var", "greeting=hi", good.toString());
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out().strip()).isEqualTo("Job validation successful");

        Path bad = Files.writeString(tmp.resolve("bad.hcl"), JOB.replace("default = 1", "default = \"x\"")
                .replace("driver = \"raw_exec\"", "driver = \"docker\""));
        CliRun failed = CliRun.of("job", "validate", bad.toString());
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.errorLines()).containsExactly(
                "Error: " + bad + ":1: Unset variable \"greeting\": a used variable must be set or have a default "
                        + "value (-var greeting=..., a -var-file or NOMAD_VAR_greeting)",
                "Error: " + bad + ":4: variable \"times\": its default is not a number: \"x\" is not a number");
        assertThat(failed.hasNoStackTrace()).isTrue();

        CliRun unknownDriver = CliRun.of("job", "validate", "-var", "greeting=hi", bad.toString().replace("bad", "good"),
                Files.writeString(tmp.resolve("docker.hcl"), JOB.replace("driver = \"raw_exec\"", "driver = \"docker\""))
                        .toString(), "-var-file", Files.writeString(tmp.resolve("v.hcl"), "times = 2\n").toString());
        assertThat(unknownDriver.exitCode()).isEqualTo(1);
        assertThat(unknownDriver.errorLines()).singleElement().asString()
                .startsWith("Error: " + tmp.resolve("docker.hcl") + ":14: job \"lang\" > group \"g\" > task \"t\" > driver: unknown driver \"docker\"");
    }

    @Test
    void jobRunSendsTheJobEvaluatedHereAndTheAgentNamesTheUsersFile() throws Exception {
        agent = AgentProcess.start(AgentTestConfig.writeWithRawExec(tmp), tmp.resolve("agent.err"));
        String addr = agent.awaitAddress(START);
        Files.writeString(tmp.resolve("note.txt"), "from the file\n");
        Path job = Files.writeString(tmp.resolve("job.hcl"), JOB);
        Path vars = Files.writeString(tmp.resolve("vars.hcl"), "times = 2\n");

        CliRun run = CliRun.of("job", "run", "-address", addr, "-var", "greeting=hi", "-var-file", vars.toString(),
                job.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String alloc = run.out().strip().substring(0, 8);
        CliRun logs = CliRun.of("alloc", "logs", "-address", addr, alloc, "t");
        assertThat(logs.out().strip()).isEqualTo("HI HI from the file");

        // a problem only the agent finds (its drivers): named by the user's file and the line in it
        Path other = Files.writeString(tmp.resolve("other.hcl"), JOB.replace("driver = \"raw_exec\"", "driver = \"docker\""));
        CliRun refused = CliRun.of("job", "run", "-address", addr, "-var", "greeting=hi", other.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).contains("other.hcl:14: job \"lang\" > group \"g\" > task \"t\" > driver: unknown driver \"docker\"");
    }
}
