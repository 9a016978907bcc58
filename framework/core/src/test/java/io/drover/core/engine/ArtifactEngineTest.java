package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskState;
import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Artifacts through the real engine (ONE engine thread) and real raw_exec tasks, from a real HTTP server on
 * loopback: a download that hangs holds no engine thread (another allocation runs to the end meanwhile) and is
 * cancelled by a stop; a failed download is Nomad's "Failed Artifact Download" and the restart policy applies.
 */
@ExtendWith(ProcessLeakCheck.class)
class ArtifactEngineTest {
    @TempDir
    Path dataDir;

    private HttpServer server;
    private ExecutorService handlers;
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch slowAsked = new CountDownLatch(1);

    @BeforeEach
    void serve() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/slow.txt", ex -> {
            ex.sendResponseHeaders(200, 1000);
            ex.getResponseBody().write("first bytes".getBytes(StandardCharsets.UTF_8));
            ex.getResponseBody().flush();
            slowAsked.countDown();
            try {
                release.await(60, TimeUnit.SECONDS); // then the exchange is closed short
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            ex.close();
        });
        server.createContext("/hello.txt", ex -> {
            byte[] body = "hello from http".getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            ex.getResponseBody().write(body);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.stop(0);
        handlers.shutdownNow();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static String job(String id, String artifactBlock, String script, String restart) {
        return """
                job "%s" {
                  type = "batch"
                  group "g" {
                    %s
                    task "t" {
                      driver = "raw_exec"
                      %s
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "%s"]
                      }
                    }
                  }
                }
                """.formatted(id, restart, artifactBlock, RawExecJobs.markerEnv(), script);
    }

    private static List<TaskEventType> types(AllocationState a) {
        TaskState t = a.taskStates().get("t");
        return t.events().stream().map(TaskEvent::type).toList();
    }

    @Test
    void aHangingDownloadBlocksNoEngineThreadAndAStopCancelsIt() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir, 1)) {
            String slow = job("slow", "artifact {\n source = \"" + url("/slow.txt") + "\"\n }", "cat local/slow.txt",
                    "");
            AllocationState hanging = jobs.engine.submit(RawExecJobs.parse(slow)).get(0);
            assertThat(slowAsked.await(30, TimeUnit.SECONDS)).as("the download started").isTrue();
            RawExecJobs.await(() -> types(jobs.engine.allocation(hanging.id()).orElseThrow())
                    .contains(TaskEventType.DOWNLOADING_ARTIFACTS), "Downloading Artifacts");

            // the only engine thread is free: another allocation runs from start to end while the download hangs
            AllocationState other = jobs.run(job("quick", "", "echo quick", ""));
            assertThat(other.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(other, "t")).isEqualTo("quick\n");
            assertThat(slowAsked.getCount()).isZero();
            assertThat(release.getCount()).as("the slow download is still hanging").isEqualTo(1);

            jobs.engine.stop(hanging.id());
            AllocationState stopped = jobs.engine.terminal(hanging.id()).get(30, TimeUnit.SECONDS);
            assertThat(types(stopped)).contains(TaskEventType.DOWNLOADING_ARTIFACTS, TaskEventType.KILLED)
                    .doesNotContain(TaskEventType.STARTED, TaskEventType.ARTIFACT_DOWNLOAD_FAILED);
            assertThat(stopped.taskStates().get("t").failed()).isFalse();
        }
    }

    @Test
    void aFailedDownloadIsRecordedAndTheRestartPolicyApplies() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String restart = "restart {\n attempts = 1\n delay = \"0s\"\n mode = \"fail\"\n }";
            AllocationState done = jobs.run(job("missing",
                    "artifact {\n source = \"" + url("/missing.txt") + "\"\n }", "true", restart));
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(types(done)).containsSubsequence(TaskEventType.DOWNLOADING_ARTIFACTS,
                    TaskEventType.ARTIFACT_DOWNLOAD_FAILED, TaskEventType.RESTARTING,
                    TaskEventType.DOWNLOADING_ARTIFACTS, TaskEventType.ARTIFACT_DOWNLOAD_FAILED,
                    TaskEventType.NOT_RESTARTING).doesNotContain(TaskEventType.STARTED);
            TaskEvent failed = done.taskStates().get("t").events().stream()
                    .filter(e -> e.type() == TaskEventType.ARTIFACT_DOWNLOAD_FAILED).findFirst().orElseThrow();
            assertThat(failed.displayMessage()).contains("/missing.txt").contains("404");
            assertThat(failed.details()).containsKey("download_error");
        }
    }

    @Test
    void aFetchedArtifactIsThereWhenTheTaskRunsAndSourcesAreInterpolated() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String src = url("/${NOMAD_META_file}");
            AllocationState done = jobs.run(job("hello", "meta {\n file = \"hello.txt\"\n }\n"
                    + "artifact {\n source = \"" + src + "\"\n destination = \"local/in\"\n }",
                    "cat local/in/hello.txt", ""));
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(done, "t")).isEqualTo("hello from http");
        }
    }
}
