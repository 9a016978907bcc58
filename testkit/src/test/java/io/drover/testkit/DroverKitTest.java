package io.drover.testkit;

import static io.drover.core.event.TaskEventType.KILLED;
import static io.drover.core.event.TaskEventType.RECEIVED;
import static io.drover.core.event.TaskEventType.STARTED;
import static io.drover.core.event.TaskEventType.TERMINATED;
import static io.drover.testkit.DroverAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kit's own contract: what its runs do and how its assertions fail. */
@DroverTest
class DroverKitTest {
    @TempDir
    Path dir;

    private Path job(String name, String hcl) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, hcl);
        return file;
    }

    private static final String WEB = """
            job "web" {
              type = "batch"
              group "g" {
                task "web" {
                  driver = "docker"
                  kill_timeout = "5s"
                  config { image = "nginx" }
                }
                task "cleanup" {
                  driver = "mock"
                  lifecycle { hook = "poststop" }
                  config { run_for = "10ms" }
                }
              }
            }
            """;

    @Test
    void assertionsFailWithWhatWasFound(Drover drover) throws Exception {
        Allocation alloc = drover.simulate("docker").mock("web", Map.of("run_for", "1s")).run(job("web.hcl", WEB));

        assertThatThrownBy(() -> assertThat(alloc).task("web").startedAfter("cleanup", TERMINATED))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("task web of web.g[0]: expected it to start after cleanup Terminated");
        assertThatThrownBy(() -> assertThat(alloc).task("web").killedWith("SIGKILL"))
                .hasMessageContaining("no Killing event")
                .hasMessageContaining("its events: [Received, Task Setup, Started, Terminated]");
        assertThatThrownBy(() -> assertThat(alloc).task("cleanup").events().containsSequence(RECEIVED, STARTED))
                .hasMessage("task cleanup: expected its events to contain the sequence [Received, Started] but they "
                        + "are [Received, Task Setup, Started, Terminated]");
        assertThatThrownBy(() -> assertThat(alloc).isFailed()).hasMessageContaining("to be failed but it is complete");
        assertThatThrownBy(() -> assertThat(alloc).task("nope")).hasMessageContaining("has no task \"nope\"");
        assertThatThrownBy(() -> assertThat(alloc).tasksDiedInOrder("cleanup", "web"))
                .hasMessageContaining("expected task web to die after cleanup");
        assertThat(alloc).task("cleanup").startedAt(Duration.ofSeconds(1));
    }

    @Test
    void aRefusedJobFailsTheTestWithTheParsersLine(Drover drover) throws Exception {
        Path bad = job("bad.hcl", WEB.replace("kill_timeout = \"5s\"", "kill_timeout = \"-5s\""));
        assertThatThrownBy(() -> drover.simulate("docker").run(bad)).isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("job file refused: " + bad + ":6: job \"web\" > group \"g\" > task \"web\" > kill_timeout: ")
                .hasMessageContaining("kill_timeout");
    }

    @Test
    void anUnknownDriverOrBadMockConfigFailsTheTest(Drover drover) throws Exception {
        Path web = job("web.hcl", WEB);
        assertThatThrownBy(() -> drover.run(web)).hasMessageContaining("unknown driver \"docker\"");
        assertThatThrownBy(() -> drover.mock("web", Map.of("run_for", "soon")).run(web))
                .hasMessageContaining("task \"web\" > config > run_for");
        assertThatThrownBy(() -> drover.mock("other", Map.of()).run(web))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[other]");
    }

    @Test
    void aServiceJobNeedsAStop(Drover drover) throws Exception {
        Path service = job("svc.hcl", WEB.replace("batch", "service"));
        drover.simulate("docker").mock("web", Map.of("run_for", "1h")).timeLimit(Duration.ofHours(1));
        assertThatThrownBy(() -> drover.run(service)).hasMessageContaining("use stopAfter");

        Allocation stopped = drover.stopAfter(Duration.ofMinutes(5)).run(service);
        assertThat(stopped).isComplete().task("web").killedWith("SIGINT").after(Duration.ZERO).and()
                .task("cleanup").startedAfter("web", KILLED);
    }

    @Test
    void aRegisteredDriverRunsItsTasks(Drover drover) throws Exception {
        List<String> started = new CopyOnWriteArrayList<>();
        drover.driver(new ForwardingTaskDriver(new MockDriver()) {
            @Override
            public String name() {
                return "docker";
            }

            @Override
            public CompletionStage<TaskHandle> start(TaskConfig config) {
                started.add(config.taskName());
                return super.start(new TaskConfig(config.taskId(), config.allocId(), config.jobId(), config.groupName(),
                        config.taskName(), Map.of("run_for", "2s"), config.env(), config.taskDir(), config.allocDir(),
                        config.stdoutPath(), config.stderrPath(), config.logMaxFiles(), config.logMaxFileSize()));
            }

            @Override
            public java.util.Optional<io.drover.driver.api.schema.ConfigSchema> taskConfigSchema() {
                return java.util.Optional.empty(); // a stand-in for docker: not the mock's schema (it takes image)
            }

            @Override
            public java.util.List<io.drover.driver.api.ConfigProblem> validateConfig(Map<String, Object> config) {
                return List.of();
            }
        });
        assertThat(drover.run(job("web.hcl", WEB))).isComplete().task("cleanup").startedAt(Duration.ofSeconds(2));
        assertThat(started).containsExactly("web");
    }

    @Test
    void runAllReturnsEveryAllocationAndTheClockGoesOn(Drover drover) throws Exception {
        Path two = job("two.hcl", WEB.replace("group \"g\" {", "group \"g\" {\n    count = 2"));
        List<Allocation> allocs = drover.simulate("docker").runAll(two);
        assertThat(allocs).hasSize(2);
        assertThat(allocs.get(1).state().name()).isEqualTo("web.g[1]");
        assertThatThrownBy(() -> drover.run(two)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("use runAll");
        assertThat(drover.now()).isAfter(Drover.START);
    }
}
