package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Lifecycle;
import io.drover.core.spec.LifecycleHook;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.TaskState;
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
 * The engine with the real raw_exec driver and real processes: a leader exits, a TERM-ignoring sibling is
 * escalated to SIGKILL ("Exit Code: 137, Signal: 9"), a poststop task runs, logs land in alloc/logs.
 */
@ExtendWith(ProcessLeakCheck.class)
class RawExecEngineTest {
    @TempDir
    Path dataDir;

    private static Task task(String name, String script, boolean leader, Lifecycle lifecycle) {
        return new Task(name, "raw_exec", Map.of("command", "sh", "args", List.of("-c", script)),
                Map.of(ProcessLeakCheck.MARKER_VAR, ProcessLeakCheck.env().get(ProcessLeakCheck.MARKER_VAR)),
                leader, lifecycle, Duration.ofMillis(300), "SIGTERM", Duration.ZERO, null, LogConfig.DEFAULT,
                JobType.BATCH.defaultRestart(), 0);
    }

    @Test
    void leaderExitEscalatesATermIgnoringSiblingAndRunsPoststop() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            Engine engine = jobs.engine;
            TaskGroup group = new TaskGroup("g", 1, JobType.BATCH.defaultRestart(), null, List.of(
                    // the leader ends only once stubborn ignores SIGTERM: a TERM that arrives before the trap is set
                    // kills it (143), which the shim's extra start-up step made likelier
                    task("leader", "while [ ! -e \"$NOMAD_ALLOC_DIR/trapped\" ]; do sleep 0.01; done; "
                            + "echo \"leading $NOMAD_TASK_NAME\"", true, null),
                    task("stubborn", "trap '' TERM; touch \"$NOMAD_ALLOC_DIR/trapped\"; "
                            + "while :; do sleep 1000 & wait $!; done", false, null),
                    task("after", "echo bar", false, new Lifecycle(LifecycleHook.POSTSTOP, false, null))), 0);
            Job job = new Job("example", "example", JobType.BATCH, List.of("dc1"), List.of(group), "test");

            AllocationState placed = engine.submit(job).get(0);
            AllocationState done = engine.terminal(placed.id()).get(30, TimeUnit.SECONDS);

            TaskState stubborn = done.taskStates().get("stubborn");
            TaskEvent terminated = stubborn.events().stream()
                    .filter(e -> e.type() == TaskEventType.TERMINATED).findFirst().orElseThrow();
            assertThat(terminated.displayMessage()).isEqualTo("Exit Code: 137, Signal: 9");
            assertThat(terminated.exitCode()).isEqualTo(137);
            assertThat(terminated.signal()).isEqualTo(9);
            assertThat(stubborn.events()).extracting(TaskEvent::type)
                    .contains(TaskEventType.KILLING, TaskEventType.KILLED);
            assertThat(done.taskStates().get("leader").events()).extracting(TaskEvent::displayMessage)
                    .contains("Exit Code: 0");

            Path logs = dataDir.resolve("alloc").resolve(placed.id()).resolve("alloc").resolve("logs");
            assertThat(Files.readString(logs.resolve("leader.stdout.0"))).isEqualTo("leading leader\n");
            assertThat(Files.readString(logs.resolve("after.stdout.0"))).isEqualTo("bar\n");
        }
    }
}
