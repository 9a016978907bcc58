package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover run} (the CLI main in a child JVM, as the launcher runs it) interrupted by SIGTERM while its job's
 * poststop task ignores SIGTERM and would run for minutes, under the default gc_kill_policy (preserve_states: a
 * stop leaves a running poststop task alone). The run owns its tasks: it must kill them (SIGKILL of the tree,
 * with the events recorded) once its wait bound has passed or on a second signal, print every allocation's
 * status, delete its temporary data dir, exit 128 + 15, and leave no process behind.
 */
class RunInterruptEndToEndTest {
    /** Main task: runs until stopped. Poststop: ignores SIGTERM and has a child, so SIGKILL must take a tree. */
    private static final String JOB = """
            job "interrupted" {
              type = "batch"
              group "g" {
                task "main" {
                  driver       = "raw_exec"
                  kill_timeout = "1s"
                  config {
                    command = "sleep"
                    args    = ["300"]
                  }
                }
                task "cleanup" {
                  driver       = "raw_exec"
                  kill_timeout = "1s"
                  lifecycle {
                    hook = "poststop"
                  }
                  config {
                    command = "sh"
                    args    = ["-c", "trap '' TERM; sleep 300 & echo cleaning; wait"]
                  }
                }
              }
            }
            """;

    @TempDir
    Path dir;
    private Path tmp;
    private Path config;
    private Path job;
    private Process run;

    @BeforeEach
    void files() throws Exception {
        tmp = Files.createDirectories(dir.resolve("tmp"));
        String plugins = System.getProperty("drover.test.plugins");
        assertThat(plugins).as("system property drover.test.plugins (run 'mvn verify')").isNotNull();
        // no data_dir: drover run makes a temporary one (under java.io.tmpdir) and must delete it
        config = Files.writeString(dir.resolve("agent.hcl"), "plugin_dir = \"" + plugins + "\"\n");
        job = Files.writeString(dir.resolve("interrupted.hcl"), JOB);
    }

    @AfterEach
    void noProcessLeft() throws Exception {
        if (run != null && run.isAlive()) {
            run.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
        List<String> left = NoProcessLeft.under(tmp);
        left.forEach(p -> ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(left).as("processes of the job left running").isEmpty();
    }

    @Test
    void sigtermKillsTheStuckPoststopTaskOnceTheWaitBoundHasPassedAndPrintsTheStatus() throws Exception {
        run = start("2s");
        awaitStderr("main:running", "the main task runs");

        long signalled = System.nanoTime();
        run.destroy(); // SIGTERM
        JsonNode alloc = awaitEnd();

        double seconds = (System.nanoTime() - signalled) / 1e9;
        assertThat(seconds).as("drover run ended soon after the 2s bound, not after the poststop task's 300s")
                .isLessThan(20);
        assertThat(stderr()).contains("==> Caught interrupt: stopping allocations")
                .contains("allocations still running 2s after the interrupt: killing every task left");
        assertKilledThenPrinted(alloc, "allocations still running 2s after the interrupt");
    }

    @Test
    void aSecondSigtermKillsEveryTaskLeftAtOnce() throws Exception {
        run = start("5m");
        awaitStderr("main:running", "the main task runs");
        run.destroy(); // SIGTERM: the main task is stopped, the poststop task starts and ignores SIGTERM
        awaitStderr("cleanup:running", "the poststop task runs after the stop");

        long signalled = System.nanoTime();
        run.destroy(); // the second SIGTERM
        JsonNode alloc = awaitEnd();

        double seconds = (System.nanoTime() - signalled) / 1e9;
        assertThat(seconds).as("drover run ended soon after the second SIGTERM, not after the 5m bound")
                .isLessThan(20);
        assertThat(stderr()).contains("==> drover run interrupted twice: killing every task left");
        assertKilledThenPrinted(alloc, "drover run interrupted twice");
    }

    /** Waits for the exit (its poststop task would run minutes), then checks the code and reads the JSON status. */
    private JsonNode awaitEnd() throws Exception {
        boolean ended = run.waitFor(60, TimeUnit.SECONDS);
        assertThat(ended).as("drover run ended after SIGTERM; stderr:%n%s", stderr()).isTrue();
        assertThat(run.exitValue()).as("exit code 128 + SIGTERM; stderr:%n%s", stderr()).isEqualTo(143);
        String out = Files.readString(dir.resolve("out.json"));
        assertThat(out).as("stdout (the status); stderr:%n%s", stderr()).isNotBlank();
        JsonNode json = new ObjectMapper().readTree(out);
        assertThat(json.isArray()).as(out).isTrue();
        assertThat(json.size()).as(out).isEqualTo(1);
        return json.get(0);
    }

    /**
     * Both tasks dead with their events: main stopped by its kill_signal (the default, SIGINT), the poststop task started after it and
     * killed with SIGKILL for {@code reason}; then the temporary data dir is gone.
     */
    private void assertKilledThenPrinted(JsonNode alloc, String reason) throws IOException {
        Allocs.assertAllDead(alloc);
        JsonNode main = alloc.path("TaskStates").path("main");
        assertThat(Allocs.types(main)).contains("Started", "Killing", "Terminated", "Killed");
        assertThat(Allocs.event(alloc, "main", "Killing").path("Details").path("kill_signal").asText())
                .as("the default kill_signal, as in Nomad").isEqualTo("SIGINT");
        JsonNode cleanup = alloc.path("TaskStates").path("cleanup");
        assertThat(Allocs.types(cleanup)).containsSubsequence("Started", "Killing", "Terminated", "Killed");
        JsonNode killing = Allocs.event(alloc, "cleanup", "Killing");
        assertThat(killing.path("Details").path("kill_signal").asText()).isEqualTo("SIGKILL");
        assertThat(killing.path("KillReason").asText()).isEqualTo(reason);
        assertThat(Allocs.event(alloc, "cleanup", "Terminated").path("Signal").asInt()).isEqualTo(9);
        assertThat(Allocs.first(alloc, "cleanup", "Started"))
                .isGreaterThanOrEqualTo(Allocs.first(alloc, "main", "Terminated"));
        try (Stream<Path> left = Files.list(tmp)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("drover-run-")))
                    .as("drover run's temporary data dir deleted").isEmpty();
        }
    }

    private Process start(String interruptWait) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Djava.io.tmpdir=" + tmp, "-Ddrover.run.interrupt-wait=" + interruptWait,
                "-cp", System.getProperty("java.class.path"), "io.drover.cli.Main", "run", "-json",
                "-config", config.toString(), job.toString())
                .redirectOutput(dir.resolve("out.json").toFile())
                .redirectError(dir.resolve("err.txt").toFile());
        return pb.start();
    }

    private String stderr() throws IOException {
        Path err = dir.resolve("err.txt");
        return Files.exists(err) ? Files.readString(err) : "";
    }

    /** Across the process boundary: polls the child's stderr (the live status lines) with a deadline. */
    private void awaitStderr(String fragment, String what) throws Exception {
        Poll.until(what, Duration.ofSeconds(30), this::stderr, s -> s.contains(fragment) || !run.isAlive());
        assertThat(run.isAlive()).as("drover run still running when " + what + "; stderr:%n%s", stderr()).isTrue();
    }
}
