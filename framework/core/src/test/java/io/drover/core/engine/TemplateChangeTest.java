package io.drover.core.engine;

import static io.drover.core.engine.RawExecJobs.readOrEmpty;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Templates that change, through the real engine and raw_exec: a {@code source} file (and a {@code file} input)
 * changed while the task runs re-renders the template and applies its change_mode as Nomad's template hook does —
 * signal (the process gets its change_signal, "Template re-rendered"), restart ("Restart Signaled", then a new run
 * that the restart policy does not count: attempts = 0 here), noop (the file only) — and a link planted in place of
 * an input is refused at the re-render: the task is killed and fails, and nothing outside the allocation is read.
 */
@ExtendWith(ProcessLeakCheck.class)
class TemplateChangeTest {
    @TempDir
    Path dataDir;

    /** A service task that records each SIGHUP it gets, with templates reading local/in.tpl. */
    private static String job(String changeMode) {
        return job(changeMode, "");
    }

    private static String job(String changeMode, String wait) {
        return """
                job "tw" {
                  group "g" {
                    restart {
                      attempts = 0
                      mode = "fail"
                    }
                    task "t" {
                      driver = "raw_exec"
                      template {
                        data = "v1"
                        destination = "local/in.tpl"
                        change_mode = "noop"
                      }
                      template {
                        source = "local/in.tpl"
                        destination = "local/out.txt"
                        change_mode = "%s"
                        change_signal = "SIGHUP"
                        splay = "0s"
                        %s
                      }
                      template {
                        data = "copy={{ file \\"local/in.tpl\\" }}"
                        destination = "local/copy.txt"
                        change_mode = "noop"
                      }
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "trap 'echo hup >> local/hups' HUP; : > local/trapped; while true; do sleep 0.05; done"]
                      }
                    }
                  }
                }
                """.formatted(changeMode, wait, RawExecJobs.markerEnv());
    }

    private static List<TaskEvent> events(RawExecJobs jobs, String id, TaskEventType type) {
        return jobs.events(id, "t", type);
    }


    /** Waits for the task's first run and returns its task directory. */
    private static Path running(RawExecJobs jobs, String id) throws Exception {
        return jobs.awaitRuns(id, "t", 1);
    }

    private static AllocationState stop(RawExecJobs jobs, String id) throws Exception {
        jobs.engine.stop(id);
        return jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
    }

    @Test
    void aChangedSourceIsReRenderedAndSignalsTheTask() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("signal"))).get(0).id();
            Path dir = running(jobs, id);
            assertThat(readOrEmpty(dir.resolve("local/out.txt"))).isEqualTo("v1");
            assertThat(readOrEmpty(dir.resolve("local/copy.txt"))).isEqualTo("copy=v1");

            // the run's start is not the trap's installation: a SIGHUP before it would end the shell (seen flaky)
            RawExecJobs.await(() -> Files.exists(dir.resolve("local/trapped")), "the task's trap");
            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> events(jobs, id, TaskEventType.SIGNALING).size() == 1, "the Signaling event");
            RawExecJobs.await(() -> readOrEmpty(dir.resolve("local/hups")).equals("hup\n"), "the task to get SIGHUP");
            assertThat(readOrEmpty(dir.resolve("local/out.txt"))).isEqualTo("v2");
            assertThat(readOrEmpty(dir.resolve("local/copy.txt"))).as("the file input is watched too")
                    .isEqualTo("copy=v2");
            List<TaskEvent> signals = events(jobs, id, TaskEventType.SIGNALING);
            assertThat(signals).hasSize(1);
            assertThat(signals.get(0).displayMessage()).isEqualTo("Template re-rendered");
            assertThat(signals.get(0).taskSignal()).isEqualTo("SIGHUP");
            assertThat(events(jobs, id, TaskEventType.STARTED)).as("a signal does not restart").hasSize(1);

            AllocationState done = stop(jobs, id);
            assertThat(done.taskStates().get("t").failed()).isFalse();
        }
    }

    @Test
    void aChangedSourceWithChangeModeRestartRestartsTheTaskWithoutCountingIt() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("restart"))).get(0).id();
            Path dir = running(jobs, id);

            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> events(jobs, id, TaskEventType.STARTED).size() == 2, "the second run");
            TaskState t = jobs.task(id, "t");
            List<TaskEventType> types = t.events().stream().map(TaskEvent::type).toList();
            int signaled = types.indexOf(TaskEventType.RESTART_SIGNALED);
            assertThat(signaled).as(types.toString()).isPositive();
            assertThat(types.subList(signaled, types.size())).as("restart policy attempts = 0 did not apply")
                    .containsSubsequence(TaskEventType.RESTART_SIGNALED, TaskEventType.KILLING,
                            TaskEventType.TERMINATED, TaskEventType.RESTARTING, TaskEventType.STARTED)
                    .doesNotContain(TaskEventType.NOT_RESTARTING);
            assertThat(events(jobs, id, TaskEventType.RESTART_SIGNALED).get(0).displayMessage())
                    .isEqualTo("Template with change_mode restart re-rendered");
            assertThat(events(jobs, id, TaskEventType.RESTARTING).get(0).displayMessage())
                    .isEqualTo("Task restarting in 0s");
            assertThat(t.failed()).isFalse();
            assertThat(readOrEmpty(dir.resolve("local/out.txt"))).isEqualTo("v2");

            AllocationState done = stop(jobs, id);
            assertThat(done.taskStates().get("t").failed()).isFalse();
        }
    }

    @Test
    void waitHoldsTheReRenderUntilTheInputsAreQuietForMin() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("noop", "wait {\n min = \"3s\"\n max = \"1m\"\n }")))
                    .get(0).id();
            Path dir = running(jobs, id);
            Instant changed = Instant.now();
            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> readOrEmpty(dir.resolve("local/out.txt")).equals("v2"), "the re-render");
            assertThat(java.time.Duration.between(changed, Instant.now()))
                    .as("no re-render before the inputs were quiet for wait.min")
                    .isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(3));
            // the copy template has no wait: it re-rendered at the first poll that saw the change
            assertThat(readOrEmpty(dir.resolve("local/copy.txt"))).isEqualTo("copy=v2");
            stop(jobs, id);
        }
    }

    @Test
    void noopReRendersTheFileOnly() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("noop"))).get(0).id();
            Path dir = running(jobs, id);
            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> readOrEmpty(dir.resolve("local/out.txt")).equals("v2"), "the re-render");
            RawExecJobs.await(() -> readOrEmpty(dir.resolve("local/copy.txt")).equals("copy=v2"),
                    "the file input's re-render");
            AllocationState done = stop(jobs, id);
            List<TaskEventType> types = done.taskStates().get("t").events().stream().map(TaskEvent::type).toList();
            assertThat(types).doesNotContain(TaskEventType.SIGNALING, TaskEventType.RESTART_SIGNALED,
                    TaskEventType.RESTARTING);
            assertThat(readOrEmpty(dir.resolve("local/hups"))).isEmpty();
        }
    }

    @Test
    void aLinkPlantedInPlaceOfAnInputIsRefusedAtTheReRender() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("signal"))).get(0).id();
            Path dir = running(jobs, id);
            Path outside = Files.writeString(dataDir.resolve("secret.txt"), "outside-secret");
            Path in = dir.resolve("local/in.tpl");
            Files.delete(in);
            Files.createSymbolicLink(in, outside);

            AllocationState done = jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
            TaskState t = done.taskStates().get("t");
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(t.failed()).isTrue();
            assertThat(t.events().stream().filter(e -> e.type() == TaskEventType.KILLING)
                    .map(TaskEvent::displayMessage).toList())
                    .anySatisfy(m -> assertThat(m).contains("Template failed: ")
                            .contains("outside the allocation directory"));
            assertThat(readOrEmpty(dir.resolve("local/out.txt"))).isEqualTo("v1");
            assertThat(readOrEmpty(dir.resolve("local/copy.txt"))).doesNotContain("outside-secret");
        }
    }
}
