package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bad agent config is one line naming the file, line and key, exit code 2, and nothing starts (contract §4) —
 * including what is found only once the drivers load (a driver refusing its plugin block). The agent tests are
 * bounded: an agent that wrongly starts would block in its command forever.
 */
class ConfigErrorsTest {
    @TempDir
    Path tmp;

    private static String plugins() {
        String dir = System.getProperty("drover.test.plugins");
        if (dir == null) {
            throw new IllegalStateException("system property drover.test.plugins is unset: run 'mvn package'");
        }
        return dir;
    }

    /** A config with the test plugins (mock, raw_exec, java, exec), any free port and {@code extra} appended. */
    private Path config(String extra) throws Exception {
        return Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                ports {
                  http = 0
                }
                """.formatted(tmp.resolve("data"), plugins()) + extra);
    }

    private static void assertOneErrorLine(CliRun run, String line) {
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).containsExactly(line);
        assertThat(run.hasNoStackTrace()).isTrue();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBadValueInRawExecsPluginBlockStopsTheAgent() throws Exception {
        Path file = config("""
                plugin "raw_exec" {
                  config {
                    enabled = "yes"
                  }
                }
                """);

        CliRun run = CliRun.of("agent", "-config", file.toString());

        assertOneErrorLine(run, "Error: " + file
                + ":8: plugin \"raw_exec\" > config > enabled: must be true or false, found \"yes\"");
        assertThat(run.err()).doesNotContain("Drover agent started");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void anUnknownKeyInRawExecsPluginBlockStopsTheAgent() throws Exception {
        Path file = config("""
                plugin "raw_exec" {
                  config {
                    enabled = true
                    bogus   = true
                  }
                }
                """);

        CliRun run = CliRun.of("agent", "-config", file.toString());

        assertOneErrorLine(run, "Error: " + file
                + ":9: plugin \"raw_exec\" > config > bogus: unknown key (allowed: enabled)");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBindAddrThatIsNoAddressIsAConfigError() throws Exception {
        Path file = config("bind_addr = \"not an addr!!\"\n");

        CliRun run = CliRun.of("agent", "-config", file.toString());

        assertOneErrorLine(run, "Error: " + file + ":6: bind_addr: not an IP address or host name: \"not an addr!!\"");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aPluginDirTheConfigSetsMustExist() throws Exception {
        Path missing = tmp.resolve("no-plugins");
        Path file = Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "no-plugins"
                """.formatted(tmp.resolve("data")));

        CliRun run = CliRun.of("agent", "-config", file.toString());

        assertOneErrorLine(run, "Error: " + file + ":2: plugin_dir: " + missing + " does not exist");
    }

    @Test
    void runRefusesABadPluginBlockToo() throws Exception {
        Path file = config("""
                plugin "raw_exec" {
                  config {
                    enabled = "yes"
                  }
                }
                """);

        CliRun run = CliRun.of("run", "-config", file.toString(), tmp.resolve("job.hcl").toString());

        assertOneErrorLine(run, "Error: " + file
                + ":8: plugin \"raw_exec\" > config > enabled: must be true or false, found \"yes\"");
    }

    @Test
    void runWarnsOnceAboutTheAgentOnlyKeysItIgnores() throws Exception {
        Path file = config("""
                client {
                  max_kill_timeout = "5s"
                  gc_max_allocs    = 10
                }
                """);
        Path job = Files.writeString(tmp.resolve("job.hcl"), "job \"j\" {\n  bogus = 1\n}\n");

        CliRun run = CliRun.of("run", "-config", file.toString(), job.toString());

        assertThat(run.err().lines().filter(l -> l.startsWith("Warning: ")).toList()).containsExactly(
                "Warning: drover run: ignoring agent-only keys in " + file + ": ports, gc_max_allocs");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE); // the bad job file; nothing ran
    }

    @Test
    void runWithoutAgentOnlyKeysWarnsNothing() throws Exception {
        Path file = Files.writeString(tmp.resolve("run.hcl"), """
                plugin_dir = "%s"
                client {
                  max_kill_timeout = "5s"
                }
                """.formatted(plugins()));

        CliRun run = CliRun.of("run", "-config", file.toString(), tmp.resolve("missing.hcl").toString());

        assertThat(run.err()).doesNotContain("Warning");
    }

    @Test
    void pluginStatusWarnsAboutABlockNamingNoDriver() throws Exception {
        Path file = config("plugin \"nosuch\" {\n}\n");

        CliRun run = CliRun.of("plugin", "status", "-config", file.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.OK);
        assertThat(run.err().lines().toList()).containsExactly("Warning: " + file + ":6: plugin \"nosuch\": no driver "
                + "\"nosuch\" is loaded from " + plugins() + "; the block is ignored");
    }

    @Test
    void anUnresolvableAgentAddressIsReportedAsAnUnknownHost() {
        CliRun run = CliRun.of("job", "status", "-address", "http://nonexistent.invalid:4747");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(run.err().lines().toList()).containsExactly("Error: no Drover agent at "
                + "http://nonexistent.invalid:4747 (unknown host nonexistent.invalid); start one with 'drover agent "
                + "-config FILE' or set -address/DROVER_ADDR");
    }
}
