package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.event.TaskEventType;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Templates through the real engine and raw_exec: inline data and a source file rendered before the run, perms
 * applied, env = true read into the task's env and its config; a template that reads outside the allocation fails
 * the task in one line; one that calls a Consul or Vault function is refused when the job is read.
 */
@ExtendWith(ProcessLeakCheck.class)
class TemplateEngineTest {
    @TempDir
    Path dataDir;

    private static String job(String templates, String script) {
        return """
                job "tpl" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                    }
                    task "t" {
                      driver = "raw_exec"
                      meta {
                        colour = "blue"
                      }
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
                """.formatted(templates, RawExecJobs.markerEnv(), script);
    }

    @Test
    void templatesAreRenderedBeforeTheRunAndEnvTemplatesReachTheTask() throws Exception {
        String templates = """
                template {
                  data = "colour={{ env \\"NOMAD_META_colour\\" }} task=[[ .x ]]{{ \\"!\\" }}"
                  destination = "local/out.txt"
                  perms = "0600"
                }
                template {
                  data = "FROM_TPL=[[ env \\"NOMAD_TASK_NAME\\" | toUpper ]]"
                  left_delimiter = "[["
                  right_delimiter = "]]"
                  destination = "secrets/t.env"
                  env = true
                }
                template {
                  source = "local/out.txt"
                  destination = "local/copy.txt"
                  left_delimiter = "<%"
                  right_delimiter = "%>"
                }
                """;
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job(templates, "cat local/out.txt; echo; cat local/copy.txt; echo; "
                    + "echo env=$FROM_TPL arg=${FROM_TPL}"));
            assertThat(done.clientStatus()).as(done.toString()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(done, "t")).isEqualTo("colour=blue task=[[ .x ]]!\ncolour=blue task=[[ .x ]]!\n"
                    + "env=T arg=T\n");
            Path out = AllocDirs.of(dataDir, done.id()).task("t").resolve("local/out.txt");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-------");
        }
    }

    @Test
    void aTemplateReadingOutsideTheAllocationFailsTheTaskInOneLine() throws Exception {
        String templates = """
                template {
                  data = "{{ file \\"/etc/hostname\\" }}"
                  destination = "local/x"
                }
                """;
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job(templates, "true"));
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(done.taskStates().get("t").events()).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo(TaskEventType.SETUP_FAILURE);
                assertThat(e.displayMessage()).isEqualTo("failed to render template: local/x:1: file "
                        + "\"/etc/hostname\" is outside the allocation directory");
            }).noneSatisfy(e -> assertThat(e.type()).isEqualTo(TaskEventType.STARTED));
        }
    }

    @Test
    void aFifoPlantedAsATemplateSourceFailsTheTaskAtOnceWithOneEngineThread() throws Exception {
        // a prestart task plants a FIFO nobody writes where the main task's template reads: the render refuses it
        // (an open would block a hook thread for ever), the task fails in one line and the engine goes on
        String hcl = """
                job "fifo" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                    }
                    task "plant" {
                      driver = "raw_exec"
                      lifecycle {
                        hook = "prestart"
                      }
                      env {
                        %s
                      }
                      config {
                        command = "mkfifo"
                        args = ["../alloc/in.tpl"]
                      }
                    }
                    task "t" {
                      driver = "raw_exec"
                      template {
                        source = "../alloc/in.tpl"
                        destination = "local/out"
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
                """.formatted(RawExecJobs.markerEnv(), RawExecJobs.markerEnv());
        try (RawExecJobs jobs = new RawExecJobs(dataDir, 1)) {
            AllocationState done = jobs.run(hcl);
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.FAILED);
            assertThat(done.taskStates().get("plant").failed()).isFalse();
            assertThat(done.taskStates().get("t").events()).anySatisfy(e -> {
                assertThat(e.type()).isEqualTo(TaskEventType.SETUP_FAILURE);
                assertThat(e.displayMessage()).isEqualTo("failed to render template: file \"../alloc/in.tpl\" is "
                        + "not a regular file (a FIFO, socket or device); only regular files are read");
            });
            // the only engine thread, and the hook threads, are free: another allocation renders and runs
            AllocationState other = jobs.run(job("""
                    template {
                      data = "ok"
                      destination = "local/ok"
                    }
                    """, "cat local/ok"));
            assertThat(other.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(other, "t")).isEqualTo("ok");
        }
    }

    @Test
    void consulAndVaultFunctionsAreRefusedWhenTheJobIsRead() {
        String templates = """
                template {
                  data = "{{ with secret \\"kv/db\\" }}{{ .Data.password }}{{ end }}"
                  destination = "secrets/db"
                }
                template {
                  data = "{{ range service \\"db\\" }}{{ .Address }}{{ end }}"
                  destination = "local/db"
                }
                """;
        assertThatThrownBy(() -> RawExecJobs.parse(job(templates, "true")))
                .isInstanceOfSatisfying(JobFileException.class, e -> assertThat(e.problems())
                        .extracting(Throwable::getMessage).satisfiesExactly(
                                m -> assertThat(m).contains("function \"secret\" needs Vault"),
                                m -> assertThat(m).contains("function \"service\" needs Consul")));
    }
}
