package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad's path forms through the real engine and raw_exec ({@link io.drover.core.artifact.ClientPath}): a prestart
 * task renders a template to {@code ${NOMAD_ALLOC_DIR}/x} and another to {@code /local/etc/x.conf} (re-rooted
 * under its task dir) and fetches an artifact to {@code ../alloc/y}; the main task reads both shared files. A
 * template source that escapes at run time (its {@code ${...}} known only then) fails the task in one line.
 */
@ExtendWith(ProcessLeakCheck.class)
class SharedAllocPathsEngineTest {
    @TempDir
    Path dataDir;

    private HttpServer server;

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/y.txt", ex -> {
            byte[] body = "fetched-y".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private String job() {
        return """
                job "shared" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                    }
                    task "prep" {
                      driver = "raw_exec"
                      lifecycle {
                        hook = "prestart"
                      }
                      artifact {
                        source      = "http://127.0.0.1:%d/y.txt"
                        destination = "../alloc/y"
                        mode        = "file"
                      }
                      template {
                        data        = "rendered-x"
                        destination = "${NOMAD_ALLOC_DIR}/x"
                      }
                      template {
                        data        = "conf"
                        destination = "/local/etc/x.conf"
                      }
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args    = ["-c", "cat local/etc/x.conf"]
                      }
                    }
                    task "main" {
                      driver = "raw_exec"
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args    = ["-c", "cat \\"$NOMAD_ALLOC_DIR/x\\"; echo; cat ../alloc/y"]
                      }
                    }
                  }
                }
                """.formatted(server.getAddress().getPort(), RawExecJobs.markerEnv(), RawExecJobs.markerEnv());
    }

    @Test
    void aTemplateAndAnArtifactInTheSharedAllocDirAreReadByASecondTask() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job());
            assertThat(done.clientStatus()).as(String.valueOf(done.taskStates())).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(done, "main")).isEqualTo("rendered-x\nfetched-y");
            assertThat(jobs.stdout(done, "prep")).isEqualTo("conf");
            AllocDirs dirs = AllocDirs.of(dataDir, done.id());
            assertThat(dirs.shared().resolve("x")).isRegularFile().hasContent("rendered-x");
            assertThat(dirs.shared().resolve("y")).isRegularFile().hasContent("fetched-y");
            assertThat(dirs.task("prep").resolve("local/etc/x.conf")).isRegularFile().hasContent("conf");
            assertThat(dataDir.resolve("local")).as("nothing re-rooted outside the task dir").doesNotExist();
        }
    }

    /**
     * A batch job of one raw_exec task {@code t} (no restart, {@code command = "true"}) with these prestart blocks,
     * which are to fail it before it starts.
     */
    private static String escapingJob(String blocks) {
        return """
                job "esc" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                    }
                    task "t" {
                      driver = "raw_exec"
                %s
                      env {
                        %s
                      }
                      config {
                        command = "true"
                      }
                    }
                  }
                }
                """.formatted(blocks.stripTrailing(), RawExecJobs.markerEnv());
    }

    /** Runs the job: it fails with one event of this type and message, and its task never starts. */
    private AllocationState failsBeforeStart(String hcl, TaskEventType type, String message) throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(hcl);
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(done.taskStates().get("t").events()).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo(type);
                assertThat(e.displayMessage()).isEqualTo(message);
            }).noneSatisfy(e -> assertThat(e.type()).isEqualTo(TaskEventType.STARTED));
            return done;
        }
    }

    @Test
    void aTemplateSourceThatEscapesAtRunTimeFailsTheTaskInOneLine() throws Exception {
        Files.writeString(dataDir.resolve("secret.tpl"), "outside");
        AllocationState done = failsBeforeStart(escapingJob("""
                      template {
                        source      = "${NOMAD_ALLOC_DIR}/../../../secret.tpl"
                        destination = "local/x"
                      }
                """), TaskEventType.SETUP_FAILURE, "failed to render template: template source path "
                        + "\"${NOMAD_ALLOC_DIR}/../../../secret.tpl\" escapes alloc directory (it must lie in the "
                        + "task directory or the shared alloc/ directory)");
        assertThat(Files.exists(AllocDirs.of(dataDir, done.id()).task("t").resolve("local/x"))).isFalse();
    }

    @Test
    void anArtifactDestinationThatEscapesAtRunTimeIsAFailedDownloadInOneLine() throws Exception {
        failsBeforeStart(escapingJob("""
                      meta {
                        d = "../../y"
                      }
                      artifact {
                        source      = "http://127.0.0.1:%d/y.txt"
                        destination = "${NOMAD_META_d}"
                        mode        = "file"
                      }
                """.formatted(server.getAddress().getPort())), TaskEventType.ARTIFACT_DOWNLOAD_FAILED,
                "artifact destination path \"${NOMAD_META_d}\" escapes alloc directory (it must lie in the task "
                        + "directory or the shared alloc/ directory)");
        assertThat(dataDir.resolve("alloc/y")).doesNotExist();
    }
}
