package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.vars.VariableStore;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad variables in templates through the real engine and raw_exec: a task whose template reads a variable that
 * does not exist waits for it (no start, one "Missing" event), starts once it is written, and renders again (its
 * change_mode applied) when it changes; {@code nomadVarList}, {@code nomadVarExists}, {@code .Metadata} and range
 * answer as consul-template's.
 */
@ExtendWith(ProcessLeakCheck.class)
class VariablesEngineTest {
    @TempDir
    Path dataDir;

    private static String job() {
        return """
            job "web" {
              group "g" {
                task "t" {
                  driver = "raw_exec"
                  template {
                    data = "{{ with nomadVar \\"nomad/jobs/web\\" }}user={{ .user }}{{ range $k, $v := . }} {{ $k }}={{ $v }}{{ end }} path={{ .Metadata.Path }}{{ end }}"
                    destination = "local/db.txt"
                    change_mode = "restart"
                  }
                  template {
                    data = "{{ range nomadVarList \\"nomad/jobs\\" }}{{ .Path }}\\n{{ end }}exists={{ nomadVarExists \\"nomad/jobs/none\\" }}"
                    destination = "local/list.txt"
                    change_mode = "noop"
                  }
                  config {
                    command = "sh"
                    args = ["-c", "while true; do sleep 0.05; done"]
                  }
                  env {
                    %s
                  }
                }
              }
            }
            """.formatted(RawExecJobs.markerEnv());
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    @Test
    void aTaskWaitsForItsVariableThenRendersItAgainWhenItChanges() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            VariableStore vars = jobs.engine.variables();
            String id = jobs.engine.submit(RawExecJobs.parse(job())).get(0).id();
            Path dir = AllocDirs.of(dataDir, id).task("t");
            RawExecJobs.await(() -> jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                    .anyMatch(e -> e.displayMessage().contains("Missing: nomad.var.block(nomad/jobs/web@default)")),
                    "the event saying what the template waits for");
            assertThat(events(jobs, id, TaskEventType.STARTED)).as("no start without the variable").isZero();

            vars.put("default", "nomad/jobs/web", Map.of("user", "admin", "pass", "a"), null);
            RawExecJobs.await(() -> events(jobs, id, TaskEventType.STARTED) == 1, "the start once it exists");
            assertThat(read(dir.resolve("local/db.txt")))
                    .isEqualTo("user=admin pass=a user=admin path=nomad/jobs/web");
            assertThat(read(dir.resolve("local/list.txt"))).isEqualTo("nomad/jobs/web\nexists=false");
            long missing = jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                    .filter(e -> e.displayMessage().contains("Missing:")).count();
            assertThat(missing).as("one event while it waits, not one per poll").isEqualTo(1);

            vars.put("default", "nomad/jobs/web", Map.of("user", "root"), null);
            RawExecJobs.await(() -> read(dir.resolve("local/db.txt")).equals("user=root user=root path=nomad/jobs/web"),
                    "the re-render");
            RawExecJobs.await(() -> events(jobs, id, TaskEventType.RESTART_SIGNALED) == 1,
                    "change_mode = restart applied");
            vars.put("default", "nomad/jobs/web/g", Map.of("k", "v"), null);
            RawExecJobs.await(() -> read(dir.resolve("local/list.txt"))
                    .equals("nomad/jobs/web\nnomad/jobs/web/g\nexists=false"), "the list again");
            jobs.engine.stop(id);
            AllocationState end = jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
            assertThat(end.taskStates().get("t").failed()).isFalse();
        }
    }

    @Test
    void aStopWhileWaitingForAVariableEndsTheTask() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job())).get(0).id();
            RawExecJobs.await(() -> jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                    .anyMatch(e -> e.displayMessage().contains("Missing:")), "the wait");
            jobs.engine.stop(id);
            jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
            assertThat(events(jobs, id, TaskEventType.STARTED)).isZero();
        }
    }

    private static long events(RawExecJobs jobs, String id, TaskEventType type) {
        return jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                .filter(e -> e.type() == type).count();
    }
}
