package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 8, for {@code drover run}: the client's {@code max_tasks_per_job} and {@code max_tasks} are
 * (and {@code max_tasks_per_group}: finding 11, a 100,000-task group that did not answer SIGTERM) are
 * checked before anything runs (run places every job at once), each problem one line, exit code 2, nothing run.
 */
class RunTaskLimitsTest {
    @TempDir
    Path dir;

    private Path config() throws Exception {
        return Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                client {
                  max_tasks_per_job = 4
                  max_tasks         = 6
                  max_tasks_per_group = 2
                }
                """.formatted(dir.resolve("data"), System.getProperty("drover.test.plugins")));
    }

    private Path job(String id, int count) throws Exception {
        return Files.writeString(dir.resolve(id + ".hcl"), """
                job "%s" {
                  type = "batch"
                  group "g" {
                    count = %d
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """.formatted(id, count));
    }

    @Test
    void aJobOverMaxTasksPerJobIsRefusedNamingTheFileAndNothingRuns() throws Exception {
        Path big = job("big", 5);

        CliRun run = CliRun.of("run", "-config", config().toString(), big.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).containsExactly("Error: " + big + ": job \"big\": the job places 5 tasks "
                + "(each group's count times its tasks); at most 4 per job (client max_tasks_per_job)");
        assertThat(run.out()).isEmpty();
        assertThat(run.hasNoStackTrace()).isTrue();
    }

    @Test
    void jobsOverMaxTasksTogetherAreRefusedInOneLine() throws Exception {
        CliRun run = CliRun.of("run", "-config", config().toString(), job("a", 4).toString(), job("b", 4).toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).containsExactly(
                "Error: drover run: the 2 jobs place 8 tasks together; at most 6 (client max_tasks)");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aGroupOverMaxTasksPerGroupIsRefusedNamingTheGroupAndNothingRuns() throws Exception {
        Path wide = Files.writeString(dir.resolve("wide.hcl"), """
                job "wide" {
                  type = "batch"
                  group "g" {
                    task "a" {
                      driver = "mock"
                    }
                    task "b" {
                      driver = "mock"
                    }
                    task "c" {
                      driver = "mock"
                    }
                  }
                }
                """);

        CliRun run = CliRun.of("run", "-config", config().toString(), wide.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).containsExactly("Error: " + wide + ": job \"wide\": group \"g\" has 3 tasks; "
                + "at most 2 per group (client max_tasks_per_group)");
        assertThat(run.out()).isEmpty();
    }
}
