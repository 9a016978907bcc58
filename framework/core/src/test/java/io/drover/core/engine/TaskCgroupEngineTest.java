package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import io.drover.process.TaskCgroups;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job's {@code resources} enforced end to end: the engine hands them to the real raw_exec driver, whose run gets
 * a memory cgroup; a task that allocates 200 MiB with memory 32 / memory_max 48 ends "OOM Killed" with
 * {@code oom_killed=true} in its Terminated event, as Nomad reports it, and no cgroup is left
 * ({@link ProcessLeakCheck}). Skipped on a node without cgroup v1 controllers.
 */
@ExtendWith(ProcessLeakCheck.class)
class TaskCgroupEngineTest {
    @TempDir
    Path dataDir;

    @Test
    void aTaskPastMemoryMaxIsOomKilled() throws Exception {
        Assumptions.assumeTrue(TaskCgroups.node().enabled(), TaskCgroups.node().whyOff());
        String job = """
                job "hog" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode = "fail"
                    }
                    task "hog" {
                      driver = "raw_exec"
                      resources {
                        cpu = 100
                        memory = 32
                        memory_max = 48
                      }
                      env { %s }
                      config {
                        command = "dd"
                        args = ["if=/dev/zero", "of=/dev/null", "bs=200M", "count=1"]
                      }
                    }
                  }
                }
                """.formatted(RawExecJobs.markerEnv());
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job);
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            List<TaskEvent> ended = jobs.events(done.id(), "hog", TaskEventType.TERMINATED);
            assertThat(ended).hasSize(1);
            TaskEvent e = ended.get(0);
            assertThat(e.details()).containsEntry("oom_killed", "true").containsEntry("signal", "9");
            assertThat(e.displayMessage()).isEqualTo("Exit Code: 137, Signal: 9, Exit Message: \"OOM Killed\"");
        }
    }
}
