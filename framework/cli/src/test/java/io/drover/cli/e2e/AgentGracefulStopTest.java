package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4: a graceful stop (SIGTERM or SIGINT) of a real {@code drover agent} child process kills nothing: its
 * raw_exec task (a real {@code sleep}) is still running afterwards, for the next agent to re-attach, and the
 * agent's log says so. The test then kills the task itself and proves no process is left.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AgentGracefulStopTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private AgentProcess agent;

    @AfterEach
    void nothingLeft() throws Exception {
        if (agent != null) {
            agent.close();
        }
        for (long pid : processesUnder(tmp)) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        assertThat(NoProcessLeft.under(tmp)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TERM", "INT"})
    void aSignalStopsTheAgentAndLeavesTheRealTaskRunning(String signal) throws Exception {
        Path config = AgentTestConfig.write(tmp);
        Files.writeString(config, Files.readString(config) + """
                plugin "raw_exec" {
                  config {
                    enabled = true
                  }
                }
                """);
        Path job = Files.writeString(tmp.resolve("sleeper.hcl"), """
                job "sleeper" {
                  type = "batch"
                  group "g" {
                    task "sleep" {
                      driver = "raw_exec"
                      config {
                        command = "sleep"
                        args    = ["300"]
                      }
                    }
                  }
                }
                """);
        agent = AgentProcess.start(config, tmp.resolve("agent.err"));
        String addr = agent.awaitAddress(Duration.ofSeconds(30));
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String allocId = run.out().strip();
        awaitRunning(addr, allocId);
        // the task's sleep (its exit-status shim runs there too)
        List<Long> tasks = processesUnder(tmp).stream().filter(pid -> comm(pid).equals("sleep")).toList();
        assertThat(tasks).as("the task's process").hasSize(1);

        int signo = signal.equals("TERM") ? 15 : 2;
        boolean inheritedIgnore = signo == 2 && InheritedSignals.sigintIgnored();
        kill(signal, agent.process().pid());
        if (inheritedIgnore) {
            // this JVM ignores SIGINT (a background job of a non-interactive shell, nohup), so the agent inherited
            // the ignore, and a signal a process ignores stays ignored (as InterruptSignals documents): SIGINT
            // does nothing, and the SIGTERM after it is what stops the agent (signals arrive in order)
            kill("TERM", agent.process().pid());
            signo = 15;
        }
        assertThat(agent.process().waitFor(30, TimeUnit.SECONDS)).as("agent exits").isTrue();

        assertThat(agent.process().exitValue()).as("exit status of a JVM ended by SIG%s", signal)
                .isEqualTo(128 + signo);
        String log = agent.stderr();
        assertThat(log).contains("==> Caught signal: stopping the agent; tasks are left running for re-attach")
                .contains("agent stopped; 1 task(s) left running for the next agent to re-attach")
                .contains("==> Agent stopped; 1 task(s) left running for the next agent to re-attach")
                .doesNotContain("type=Killing").doesNotContain("\tat ");
        assertThat(ProcessHandle.of(tasks.get(0)).map(ProcessHandle::isAlive)).as("the task after the stop")
                .hasValue(true);
    }

    private static void kill(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        assertThat(kill.waitFor()).isZero();
    }

    private static void awaitRunning(String addr, String allocId) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(addr + "/v1/allocation/"
                    + allocId)).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode a = JSON.readTree(r.body());
            if ("running".equals(a.path("TaskStates").path("sleep").path("State").asText())) {
                return;
            }
            assertThat(System.nanoTime()).as("task running in time: " + r.body()).isLessThan(deadline);
            Thread.sleep(50); // polling a child process's API
        }
    }

    private static String comm(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "comm")).strip();
        } catch (IOException gone) {
            return "";
        }
    }

    /** Live processes whose working directory is under {@code dir} (every task runs in its task dir there). */
    private static List<Long> processesUnder(Path dir) throws IOException {
        Path root = dir.toRealPath();
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try {
                    if (Files.readSymbolicLink(proc.resolve("cwd")).startsWith(root)
                            && !Files.readString(proc.resolve("stat")).contains(") Z ")) {
                        found.add(Long.parseLong(proc.getFileName().toString()));
                    }
                } catch (IOException | RuntimeException gone) {
                    // exited meanwhile, or not ours to read
                }
            }
        }
        return found;
    }
}
