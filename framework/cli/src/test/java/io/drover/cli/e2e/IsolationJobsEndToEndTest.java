package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs shaped like Nomad's e2e isolation jobs (e2e/isolation/input/java.hcl, java_host.hcl), through
 * {@code drover run} in-process with its own temporary data dir, as a user runs them: an exec prestart compiles a
 * class with {@code javac -d ${NOMAD_ALLOC_DIR}}, then a java task runs it from {@code class_path =
 * "${NOMAD_ALLOC_DIR}"} as nobody. Before the fix the temporary data dir was 0700 and nobody could not pass
 * through it to the host path of the allocation dir: {@code Could not find or load main class Pid}. A poststop
 * exec task checks the java task's stdout (the data dir is gone when the run returns). Root only (exec, and the
 * drop to nobody).
 */
class IsolationJobsEndToEndTest {
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    @TempDir
    Path dir;
    private Path config;

    @BeforeEach
    void writeConfig() throws Exception {
        Assumptions.assumeTrue(isRoot(), "exec and the java task user need root");
        String plugins = System.getProperty("drover.test.plugins");
        Assumptions.assumeTrue(plugins != null, "run with mvn verify (drover.test.plugins)");
        // no data_dir: drover run makes its temporary one, as in `./drover run java.hcl`
        config = Files.writeString(dir.resolve("agent.hcl"), "plugin_dir = \"" + plugins + "\"\n");
    }

    private static String job(String name, String javaExtra, String check) {
        return """
                job "%s" {
                  type = "batch"
                  group "group" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    task "build" {
                      lifecycle {
                        hook = "prestart"
                      }
                      driver = "exec"
                      config {
                        command = "javac"
                        args    = ["-d", "${NOMAD_ALLOC_DIR}", "local/Pid.java"]
                      }
                      template {
                        destination = "local/Pid.java"
                        data        = <<EOH
                public class Pid {
                    public static void main(String... s) {
                        System.out.println("my pid is " + ProcessHandle.current().pid());
                    }
                }
                EOH
                      }
                    }
                    task "java" {
                      driver = "java"
                      config {
                        class_path = "${NOMAD_ALLOC_DIR}"
                        class      = "Pid"
                        %s
                      }
                    }
                    task "check" {
                      lifecycle {
                        hook = "poststop"
                      }
                      driver = "exec"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "cat /alloc/logs/java.stdout.0; %s"]
                      }
                    }
                  }
                }
                """.formatted(name, javaExtra, check);
    }

    private JsonNode run(String name, String javaExtra, String check) throws Exception {
        Path file = Files.writeString(dir.resolve(name + ".hcl"), job(name, javaExtra, check));
        Set<String> before = runDirs();
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), file.toString());
        for (String d : runDirs()) {
            if (!before.contains(d)) {
                assertThat(NoProcessLeft.under(TMP.resolve(d))).as("processes left").isEmpty();
            }
        }
        JsonNode alloc = Allocs.single(run);
        for (String task : List.of("build", "java", "check")) {
            JsonNode state = alloc.get("TaskStates").get(task);
            List<String> events = new java.util.ArrayList<>();
            state.get("Events").forEach(e -> events.add(e.get("Type").asText() + ": " + e.get("DisplayMessage")
                    .asText()));
            assertThat(state.get("Failed").asBoolean()).as(task + " " + events).isFalse();
        }
        assertThat(alloc.get("ClientStatus").asText()).isEqualTo("complete");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        return alloc;
    }

    @Test
    void javaTaskRunsTheClassCompiledIntoTheAllocDirAndIsPidOne() throws Exception {
        run("java", "", "grep -qx 'my pid is 1' /alloc/logs/java.stdout.0");
    }

    @Test
    void javaTaskWithHostPidModeHasAHostPid() throws Exception {
        run("java_host", "pid_mode = \"host\"\n    ipc_mode = \"host\"",
                "grep -q '^my pid is [0-9]' /alloc/logs/java.stdout.0 && ! grep -qx 'my pid is 1'"
                        + " /alloc/logs/java.stdout.0");
    }

    private static Set<String> runDirs() throws IOException {
        Set<String> names = new HashSet<>();
        try (DirectoryStream<Path> s = Files.newDirectoryStream(TMP, "drover-run-*")) {
            s.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    private static boolean isRoot() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(l -> l.startsWith("Uid:"))
                .anyMatch(l -> l.split("\\s+")[2].equals("0"));
    }
}
