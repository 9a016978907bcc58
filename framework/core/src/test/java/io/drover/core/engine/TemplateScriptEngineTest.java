package io.drover.core.engine;

import static io.drover.core.engine.RawExecJobs.readOrEmpty;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code change_mode = "script"} through the real engine and raw_exec: a re-rendered template runs its
 * {@code change_script} inside the task (the driver's exec: the task's directory and environment, after the new file
 * is written), with Nomad's events; {@code fail_on_error} kills the task, which fails; a script past its
 * {@code timeout} is killed with its tree (the leak check proves nothing is left).
 */
@ExtendWith(ProcessLeakCheck.class)
class TemplateScriptEngineTest {
    @TempDir
    Path dataDir;

    private static String job(String args, String timeout, boolean failOnError) {
        return """
                job "ts" {
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
                        change_mode = "script"
                        splay = "0s"
                        change_script {
                          command = "sh"
                          args = %s
                          timeout = "%s"
                          fail_on_error = %s
                        }
                      }
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "while true; do sleep 0.05; done"]
                      }
                    }
                  }
                }
                """.formatted(args, timeout, failOnError, RawExecJobs.markerEnv());
    }

    private static List<String> events(RawExecJobs jobs, String id, TaskEventType type) {
        return jobs.events(id, "t", type).stream().map(TaskEvent::displayMessage).toList();
    }

    /** Waits for the task's first run and returns its task directory. */
    private static Path running(RawExecJobs jobs, String id) throws Exception {
        return jobs.awaitRuns(id, "t", 1);
    }

    @Test
    void theScriptRunsInsideTheTaskAfterTheReRender() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job(
                    "[\"-c\", \"echo \\\"$NOMAD_TASK_NAME $(cat local/out.txt) $PWD\\\" >> local/script.out\"]", "5s",
                    false))).get(0).id();
            Path dir = running(jobs, id);
            assertThat(readOrEmpty(dir.resolve("local/script.out"))).as("not at the first render").isEmpty();

            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> !events(jobs, id, TaskEventType.HOOK_MESSAGE).isEmpty(), "the script's end");
            assertThat(readOrEmpty(dir.resolve("local/script.out"))).isEqualTo("t v2 " + dir + "\n");
            assertThat(events(jobs, id, TaskEventType.HOOK_MESSAGE)).containsExactly("Template successfully ran script"
                    + " sh with arguments: [-c echo \"$NOMAD_TASK_NAME $(cat local/out.txt) $PWD\" >> local/script.out]."
                    + " Exit code: 0");
            assertThat(events(jobs, id, TaskEventType.STARTED)).as("a script does not restart").hasSize(1);

            jobs.engine.stop(id);
            AllocationState done = jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
            assertThat(done.taskStates().get("t").failed()).isFalse();
        }
    }

    @Test
    void aFailingScriptWithFailOnErrorKillsTheTaskWhichFails() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job("[\"-c\", \"exit 3\"]", "5s", true))).get(0).id();
            Path dir = running(jobs, id);
            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");

            AllocationState done = jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
            TaskState t = done.taskStates().get("t");
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(t.failed()).isTrue();
            assertThat(events(jobs, id, TaskEventType.HOOK_FAILED)).containsExactly(
                    "Template ran script sh with arguments [-c exit 3] on change but it exited with code: 3");
            assertThat(events(jobs, id, TaskEventType.KILLING))
                    .anySatisfy(m -> assertThat(m).contains("Template script failed, task is being killed"));
        }
    }

    @Test
    void aScriptPastItsTimeoutIsKilledWithItsTreeAndTheTaskGoesOn() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job(
                    "[\"-c\", \"echo $$ > local/script.pid; sleep 60 & wait\"]", "1s", false))).get(0).id();
            Path dir = running(jobs, id);
            RawExecJobs.change(dir.resolve("local/in.tpl"), "v2");
            RawExecJobs.await(() -> !events(jobs, id, TaskEventType.HOOK_FAILED).isEmpty(), "the script's timeout");
            assertThat(events(jobs, id, TaskEventType.HOOK_FAILED)).containsExactly("Template failed to run script sh "
                    + "with arguments [-c echo $$ > local/script.pid; sleep 60 & wait] on change: timed out after 1s; "
                    + "killed. Exit code: 0");
            long pid = Long.parseLong(readOrEmpty(dir.resolve("local/script.pid")).strip());
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the script").isFalse();
            assertThat(jobs.task(id, "t").failed()).isFalse();
            assertThat(events(jobs, id, TaskEventType.KILLING)).as("fail_on_error = false").isEmpty();

            jobs.engine.stop(id);
            jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
        }
    }
}
