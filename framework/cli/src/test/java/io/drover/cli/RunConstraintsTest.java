package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 15: {@code drover run} decides constraints for this machine as the agent does. */
class RunConstraintsTest {
    @TempDir
    Path dir;

    @Test
    void aGroupThisMachineFailsIsNotRunAndNomadsLinesSayWhy() throws Exception {
        Path config = Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                datacenter = "eu-1"
                client {
                  meta {
                    rack = "r7"
                  }
                }
                """.formatted(dir.resolve("data"), System.getProperty("drover.test.plugins")));
        Path job = Files.writeString(dir.resolve("picky.hcl"), """
                job "picky" {
                  type = "batch"
                  group "windows" {
                    constraint {
                      attribute = "${attr.kernel.name}"
                      value     = "windows"
                    }
                    task "t" {
                      driver = "mock"
                    }
                  }
                  group "here" {
                    constraint {
                      attribute = "${node.datacenter}"
                      value     = "eu-1"
                    }
                    constraint {
                      attribute = "${meta.rack}"
                      operator  = "regexp"
                      value     = "^r[0-9]+$"
                    }
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);

        CliRun run = CliRun.of("run", "-config", config.toString(), job.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.err()).contains("==> Job \"picky\": failed to place all allocations on this node:\n"
                + "    Task Group \"windows\" (failed to place 1 allocation):\n"
                + "      * Constraint \"${attr.kernel.name} = windows\": 1 nodes excluded by filter\n");
        assertThat(run.out()).contains("picky.here[0]").doesNotContain("picky.windows");
    }
}
