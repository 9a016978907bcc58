package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real raw_exec poststop task learns what happened before it (contract, "Task environment and directories"):
 * it prints {@code DROVER_ALLOC_RESULT}, {@code DROVER_FAILED_TASKS} and {@code alloc/results.json}.
 */
@ExtendWith(ProcessLeakCheck.class)
class PoststopResultsTest {
    private static final String REPORT = "echo \"result=$DROVER_ALLOC_RESULT failed=$DROVER_FAILED_TASKS\"; "
            + "cat \"$NOMAD_ALLOC_DIR/results.json\"";

    @TempDir
    Path dataDir;

    private static Task task(String name, String script, Lifecycle lifecycle) {
        return new Task(name, "raw_exec", Map.of("command", "sh", "args", List.of("-c", script)),
                Map.of(ProcessLeakCheck.MARKER_VAR, ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR)),
                false, lifecycle, Duration.ofSeconds(5), "SIGTERM", Duration.ZERO, null, LogConfig.DEFAULT,
                TestJobs.NO_RESTARTS, 0);
    }

    /** Runs one allocation of these tasks to its end; returns the poststop task "report"'s stdout. */
    private String run(Task... tasks) throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            Engine engine = jobs.engine;
            TaskGroup group = new TaskGroup("g", 1, TestJobs.NO_RESTARTS, null, List.of(tasks), 0);
            Job job = new Job("results", "results", JobType.BATCH, List.of("dc1"), List.of(group), "test");
            AllocationState placed = engine.submit(job).get(0);
            AllocationState done = engine.terminal(placed.id()).get(30, TimeUnit.SECONDS);
            assertThat(done.taskStates().get("report").failed()).isFalse();
            lastStatus = done.clientStatus();
            return Files.readString(dataDir.resolve("alloc").resolve(placed.id()).resolve("alloc").resolve("logs")
                    .resolve("report.stdout.0"));
        }
    }

    private ClientStatus lastStatus;

    @Test
    void aFailedMainTaskAndAKilledSidecarAreReportedToPoststop() throws Exception {
        String out = run(
                task("proxy", "exec sleep 1000", new Lifecycle(LifecycleHook.PRESTART, true, null)),
                task("web", "echo hi; exit 3", null),
                task("report", REPORT, new Lifecycle(LifecycleHook.POSTSTOP, false, null)));

        String firstLine = out.substring(0, out.indexOf('\n'));
        assertThat(firstLine).isEqualTo("result=failed failed=web");
        JsonNode tasks = new ObjectMapper().readTree(out.substring(out.indexOf('\n') + 1)).get("Tasks");
        assertThat(tasks.fieldNames()).toIterable().containsExactly("proxy", "web");
        JsonNode web = tasks.get("web");
        assertThat(web.get("State").asText()).isEqualTo("dead");
        assertThat(web.get("Failed").asBoolean()).isTrue();
        assertThat(web.get("ExitCode").asInt()).isEqualTo(3);
        assertThat(web.get("Signal").asInt()).isZero();
        JsonNode proxy = tasks.get("proxy");
        assertThat(proxy.get("State").asText()).isEqualTo("dead");
        assertThat(proxy.get("Failed").asBoolean()).as("stopped, not failed").isFalse();
        assertThat(proxy.get("ExitCode").asInt()).isEqualTo(143);
        assertThat(proxy.get("Signal").asInt()).isEqualTo(15);
        assertThat(lastStatus).isEqualTo(ClientStatus.FAILED);
    }

    @Test
    void allMainTasksSucceededIsASuccessWithNoFailedTasks() throws Exception {
        String out = run(
                task("web", "true", null),
                task("report", REPORT, new Lifecycle(LifecycleHook.POSTSTOP, false, null)));

        assertThat(out).startsWith("result=success failed=\n");
        JsonNode web = new ObjectMapper().readTree(out.substring(out.indexOf('\n') + 1)).get("Tasks").get("web");
        assertThat(web.get("Failed").asBoolean()).isFalse();
        assertThat(web.get("ExitCode").asInt()).isZero();
        assertThat(web.get("Signal").asInt()).isZero();
        assertThat(lastStatus).isEqualTo(ClientStatus.COMPLETE);
    }
}
