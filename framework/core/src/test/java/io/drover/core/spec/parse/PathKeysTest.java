package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskRuntime;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Artifact and template paths at parse time, by Nomad's rule ({@link io.drover.core.artifact.ClientPath}): the
 * forms real Nomad jobs use are read as written; only what escapes the allocation for certain is refused, one
 * line per problem naming file:line and key, all at once; a path with {@code ${...}} is left to the run.
 */
class PathKeysTest {
    private static final String ESCAPES = " escapes alloc directory (it must lie in the task directory or the "
            + "shared alloc/ directory)";

    private static Job parse(String file, String text) throws Exception {
        return JobFileParser.parse(file, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void nomadsFormsAreReadAsWritten() throws Exception {
        Job job = parse("ok.hcl", """
                job "ok" {
                  group "g" {
                    task "web" {
                      driver = "raw_exec"
                      artifact {
                        source      = "http://127.0.0.1/a.tgz"
                        destination = "/data/storage"
                      }
                      artifact {
                        source      = "http://127.0.0.1/b"
                        destination = "../alloc/x"
                      }
                      template {
                        data        = "a"
                        destination = "${NOMAD_ALLOC_DIR}/x"
                      }
                      template {
                        source      = "${NOMAD_TASK_DIR}/in.tpl"
                        destination = "/local/etc/x.conf"
                      }
                      template {
                        data        = "b"
                        destination = "../web/local/y"
                      }
                      config {
                        command = "true"
                      }
                    }
                  }
                }
                """);
        TaskRuntime rt = job.groups().get(0).tasks().get(0).runtime();
        assertThat(rt.artifacts().stream().map(a -> a.destination()).toList())
                .containsExactly("/data/storage", "../alloc/x");
        assertThat(rt.templates().stream().map(t -> t.destination()).toList())
                .containsExactly("${NOMAD_ALLOC_DIR}/x", "/local/etc/x.conf", "../web/local/y");
        assertThat(rt.templates().get(1).source()).isEqualTo("${NOMAD_TASK_DIR}/in.tpl");
    }

    @Test
    void whatEscapesForCertainIsOneLineEachAndAllAtOnce() {
        Throwable thrown = catchThrowable(() -> parse("bad.hcl", """
                job "bad" {
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      artifact {
                        source      = "http://127.0.0.1/a"
                        destination = "../../x"
                      }
                      template {
                        data        = "a"
                        destination = "../other-task/x"
                      }
                      template {
                        source      = "/etc/x.tpl"
                        destination = "local/x"
                      }
                      template {
                        source      = "../alloc/../../y.tpl"
                        destination = "/local/../../../z"
                      }
                      config {
                        command = "true"
                      }
                    }
                  }
                }
                """));
        assertThat(thrown).isInstanceOf(JobFileException.class);
        List<String> all = ((JobFileException) thrown).problems().stream().map(JobFileException::getMessage).toList();
        String key = "job \"bad\" > group \"g\" > task \"t\" > ";
        assertThat(all).containsExactlyInAnyOrder(
                "bad.hcl:7: " + key + "artifact > destination: artifact destination path \"../../x\"" + ESCAPES,
                "bad.hcl:11: " + key + "template > destination: template destination path \"../other-task/x\""
                        + ESCAPES,
                "bad.hcl:14: " + key + "template > source: template source path \"/etc/x.tpl\"" + ESCAPES
                        + "; an absolute source must name the task or alloc directory, e.g. ${NOMAD_TASK_DIR}/x",
                "bad.hcl:19: " + key + "template > destination: template destination path \"/local/../../../z\""
                        + ESCAPES,
                "bad.hcl:18: " + key + "template > source: template source path \"../alloc/../../y.tpl\""
                        + ESCAPES);
        all.forEach(p -> assertThat(p).doesNotContain("\n"));
    }
}
