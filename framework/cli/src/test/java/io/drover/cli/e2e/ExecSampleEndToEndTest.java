package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-jobs/exec.hcl through the CLI in-process with the plugin JARs the build copies into target/test-plugins.
 * Runs where exec can (root, and unshare can make a mount namespace: this machine and CI), checked here apart from
 * the driver's own health so that a driver wrongly reporting itself unhealthy fails rather than skips. Proves no
 * process and no mount is left.
 */
class ExecSampleEndToEndTest {

    @TempDir
    Path dir;
    private Path config;

    @BeforeEach
    void writeConfig() throws Exception {
        Assumptions.assumeTrue(canMakeAMountNamespace(), "exec needs root and unshare (a private mount namespace)");
        config = TestConfig.write(dir);
    }

    @AfterEach
    void nothingLeft() throws IOException {
        assertThat(NoProcessLeft.under(dir)).isEmpty();
        String root = dir.toAbsolutePath().normalize().toString();
        assertThat(Files.readAllLines(Path.of("/proc/self/mountinfo")).stream().map(l -> l.split(" ")[4])
                .filter(m -> m.startsWith(root + "/")).toList()).as("host mounts under the data dir").isEmpty();
        List<String> rooted = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path p : procs) {
                try {
                    if (Files.readSymbolicLink(p.resolve("root")).toString().startsWith(root + "/")) {
                        rooted.add(p.getFileName().toString());
                    }
                } catch (IOException e) {
                    // gone
                }
            }
        }
        assertThat(rooted).as("processes chrooted under the data dir").isEmpty();
    }

    @Test
    void pluginStatusListsExecAsHealthy() {
        CliRun run = CliRun.of("plugin", "status", "-config", config.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.out().lines().filter(l -> l.startsWith("exec ")).toList()).singleElement().asString()
                .contains("healthy").doesNotContain("unhealthy");
    }

    @Test
    void execHclRunsIsolatedTasksAndStopsTheSidecarWithItsKillSignal() throws Exception {
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), TestConfig.SAMPLES.resolve("exec.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        assertThat(alloc.path("ClientStatus").asText()).isEqualTo("complete");
        Allocs.assertAllDead(alloc);
        for (String task : List.of("leader", "sidecar", "report")) {
            JsonNode state = alloc.path("TaskStates").path(task);
            assertThat(state.path("Failed").asBoolean()).as(task).isFalse();
            assertThat(Allocs.event(alloc, task, "Terminated").path("ExitCode").asInt()).as(task).isEqualTo(0);
        }
        assertThat(Allocs.types(alloc.path("TaskStates").path("sidecar"))).contains("Killing", "Terminated",
                "Killed");
        assertThat(Allocs.event(alloc, "sidecar", "Terminated").path("Signal").asInt()).isEqualTo(0);

        Path logs = dir.resolve("data/alloc").resolve(alloc.path("ID").asText()).resolve("alloc/logs");
        String leader = Files.readString(logs.resolve("leader.stdout.0"), StandardCharsets.UTF_8);
        assertThat(leader).startsWith("uid=65534 NOMAD_TASK_DIR=/local NOMAD_ALLOC_DIR=/alloc\n")
                .contains("/usr is read-only\n");
        String rootLine = leader.lines().filter(l -> l.startsWith("root: ")).findFirst().orElseThrow();
        assertThat(List.of(rootLine.substring(6).split(" "))).contains("alloc", "bin", "local", "usr")
                .doesNotContain("root", "work", "home");
        assertThat(Files.readString(logs.resolve("sidecar.stdout.0"))).isEqualTo("got SIGTERM\n");
        assertThat(Files.readString(logs.resolve("report.stdout.0"))).isEqualTo("exec was here\n");
        assertThat(Files.readString(logs.resolve("report.stderr.0"))).isEmpty();
    }

    private static boolean canMakeAMountNamespace() {
        try {
            Process p = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "--", "true")
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 && isRoot();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .anyMatch(l -> l.split("\\s+")[2].equals("0"));
    }
}
