package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Templates in the shared {@code alloc/} directory ({@code ${NOMAD_ALLOC_DIR}/x}, {@code ../alloc/x}) through the
 * real engine and raw_exec: re-rendered when their input there changes, and a link a task plants in {@code alloc/}
 * between two renders — in place of a directory on the way to the destination, or of the input — is not followed
 * at the re-render: the task is killed and fails ("Template failed: ..."), nothing is written outside.
 */
@ExtendWith(ProcessLeakCheck.class)
class SharedTemplateWatchTest {
    @TempDir
    Path dataDir;

    private static String job() {
        return """
            job "shared-watch" {
              group "g" {
                restart {
                  attempts = 0
                  mode = "fail"
                }
                task "t" {
                  driver = "raw_exec"
                  template {
                    data = "v1"
                    destination = "${NOMAD_ALLOC_DIR}/in.tpl"
                    change_mode = "noop"
                  }
                  template {
                    source = "../alloc/in.tpl"
                    destination = "${NOMAD_ALLOC_DIR}/sub/out.txt"
                    change_mode = "noop"
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
            """.formatted(RawExecJobs.markerEnv());
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** Places the job, waits for its first run, and returns the shared alloc directory. */
    private static Path running(RawExecJobs jobs, String id) throws Exception {
        RawExecJobs.await(() -> jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                .anyMatch(e -> e.type() == TaskEventType.STARTED), "the first run");
        return AllocDirs.of(jobs.dataDir, id).shared();
    }

    private static void assertFailedBy(RawExecJobs jobs, String id, String reason) throws Exception {
        AllocationState done = jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
        assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
        assertThat(done.taskStates().get("t").events().stream().filter(e -> e.type() == TaskEventType.KILLING)
                .map(TaskEvent::displayMessage).toList())
                .anySatisfy(m -> assertThat(m).startsWith("Killing task: Template failed: ").contains(reason));
    }

    @Test
    void aSharedInputIsWatchedAndALinkedDirectoryOnTheWayIsRefused() throws Exception {
        Path outside = Files.createDirectories(dataDir.resolve("outside"));
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job())).get(0).id();
            Path shared = running(jobs, id);
            assertThat(read(shared.resolve("sub/out.txt"))).isEqualTo("v1");
            RawExecJobs.change(shared.resolve("in.tpl"), "v2");
            RawExecJobs.await(() -> read(shared.resolve("sub/out.txt")).equals("v2"), "the re-render into alloc/");

            Files.delete(shared.resolve("sub/out.txt"));
            Files.delete(shared.resolve("sub"));
            Files.createSymbolicLink(shared.resolve("sub"), outside);
            RawExecJobs.change(shared.resolve("in.tpl"), "v3");
            assertFailedBy(jobs, id, "symbolic link");
            try (Stream<Path> in = Files.list(outside)) {
                assertThat(in.toList()).as("nothing written through the planted link").isEmpty();
            }
        }
    }

    @Test
    void aLinkPlantedInPlaceOfASharedInputIsRefusedAtTheReRender() throws Exception {
        Path secret = Files.writeString(dataDir.resolve("secret.txt"), "outside-secret");
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String id = jobs.engine.submit(RawExecJobs.parse(job())).get(0).id();
            Path shared = running(jobs, id);
            Path in = shared.resolve("in.tpl");
            Files.delete(in);
            Files.createSymbolicLink(in, secret);
            assertFailedBy(jobs, id, "symbolic link");
            assertThat(read(shared.resolve("sub/out.txt"))).isEqualTo("v1");
        }
    }
}
