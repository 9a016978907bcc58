package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Go-getter sources Nomad's {@code job validate} accepts and this node cannot fetch: the job validates and is
 * placed, and the task fails before it starts with one {@code Failed Artifact Download} line naming what it needs,
 * without a restart that could not help.
 */
@ExtendWith(ProcessLeakCheck.class)
class RemoteArtifactTest {
    @TempDir
    Path dataDir;

    private static String job(String source) {
        return """
                job "remote" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 3
                      delay    = "0s"
                      mode     = "fail"
                    }
                    task "t" {
                      driver = "raw_exec"
                      artifact {
                        source      = "%s"
                        destination = "local/repo"
                      }
                      env {
                        %s
                      }
                      config {
                        command = "true"
                      }
                    }
                  }
                }
                """.formatted(source, RawExecJobs.markerEnv());
    }

    @ParameterizedTest
    @ValueSource(strings = {"git::https://github.com/hashicorp/nomad.git", "github.com/hashicorp/go-getter",
        "git::git@github.com:hashicorp/nomad.git", "s3::https://s3.amazonaws.com/bucket/app.tar.gz",
        "https://my-bucket.s3.eu-west-1.amazonaws.com/app.zip", "gcs::https://www.googleapis.com/storage/v1/b/app",
        "hg::https://hg.example.com/repo"})
    void aSourceNomadAcceptsValidatesAndFailsItsDownloadNamingWhatItNeeds(String source) throws Exception {
        Job parsed = RawExecJobs.parse(job(source));
        assertThat(parsed.groups().get(0).tasks().get(0).runtime().artifacts()).hasSize(1);
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job(source));
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            List<TaskEvent> events = done.taskStates().get("t").events();
            assertThat(events).extracting(TaskEvent::type).containsSubsequence(
                    TaskEventType.DOWNLOADING_ARTIFACTS, TaskEventType.ARTIFACT_DOWNLOAD_FAILED)
                    .doesNotContain(TaskEventType.STARTED, TaskEventType.RESTARTING);
            TaskEvent failed = events.stream().filter(e -> e.type() == TaskEventType.ARTIFACT_DOWNLOAD_FAILED)
                    .findFirst().orElseThrow();
            assertThat(failed.displayMessage()).startsWith("artifact " + source + ": needs ").doesNotContain("\n")
                    .containsAnyOf("remote git repository", "Amazon S3 account", "Google Cloud Storage account",
                            "Mercurial");
        }
    }

    @Test
    void aLocalGitRepositoryIsNotTakenForARemoteOne() {
        assertThat(io.drover.core.artifact.RemoteSources.missing("git::/srv/repo")).isEmpty();
        assertThat(io.drover.core.artifact.RemoteSources.missing("git::file:///srv/repo")).isEmpty();
        assertThat(io.drover.core.artifact.RemoteSources.missing("https://example.com/app.tar.gz")).isEmpty();
        assertThat(io.drover.core.artifact.RemoteSources.missing("local/app.jar")).isEmpty();
    }
}
