package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import io.drover.core.spec.VolumeMount;
import io.drover.core.spec.VolumeRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Nomad's host volume keys: group {@code volume}, task {@code volume_mount}, checked with Nomad's words. */
class HostVolumeKeysTest {
    private static Job parse(String hcl) throws Exception {
        return JobFileParser.parse("v.hcl", hcl.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> problems(String hcl) {
        Throwable thrown = catchThrowable(() -> parse(hcl));
        assertThat(thrown).isInstanceOf(JobFileException.class);
        List<String> all = ((JobFileException) thrown).problems().stream().map(JobFileException::getMessage).toList();
        assertThat(all).allSatisfy(m -> assertThat(m).doesNotContain("\n").startsWith("v.hcl:"));
        return all;
    }

    @Test
    void aHostVolumeAndItsMountsAreRead() throws Exception {
        Job job = parse("""
                job "j" {
                  group "g" {
                    count = 2
                    volume "data" {
                      type      = "host"
                      source    = "shared"
                      read_only = true
                    }
                    volume "own" {
                      type      = "host"
                      source    = "scratch"
                      per_alloc = true
                    }
                    task "t" {
                      driver = "exec"
                      config { command = "/bin/true" }
                      volume_mount {
                        volume      = "data"
                        destination = "/srv/data"
                      }
                      volume_mount {
                        volume           = "own"
                        destination      = "scratch"
                        read_only        = true
                        propagation_mode = "private"
                      }
                    }
                  }
                }
                """);
        TaskGroup g = job.groups().get(0);
        assertThat(g.runtime().volumes()).containsOnlyKeys("data", "own");
        VolumeRequest data = g.runtime().volumes().get("data");
        assertThat(data).isEqualTo(new VolumeRequest("data", "host", "shared", true, false, false, "", ""));
        assertThat(g.runtime().volumes().get("own").source(1)).isEqualTo("scratch[1]");
        assertThat(data.source(1)).isEqualTo("shared");
        assertThat(g.tasks().get(0).runtime().volumeMounts()).containsExactly(
                new VolumeMount("data", "/srv/data", false, "private", ""),
                new VolumeMount("own", "scratch", true, "private", ""));
    }

    @Test
    void everyBadVolumeKeyIsOneLineNamingItAllAtOnce() {
        List<String> all = problems("""
                job "j" {
                  type = "system"
                  group "g" {
                    volume "a" {
                      type = "host"
                    }
                    volume "b" {
                      type      = "hots"
                      source    = "x"
                    }
                    volume "c" {
                      type        = "host"
                      source      = "x"
                      per_alloc   = true
                      access_mode = "single-node-reader-only"
                    }
                    volume "a" {
                      type   = "host"
                      source = "y"
                    }
                    task "t" {
                      driver = "exec"
                      config { command = "/bin/true" }
                      volume_mount {
                        volume      = "nope"
                        destination = "/data"
                      }
                      volume_mount {
                        volume           = "a"
                        destination      = "../../etc"
                        propagation_mode = "sideways"
                      }
                      volume_mount {
                        volume = "a"
                      }
                      volume_mount {
                        destination = "/"
                      }
                    }
                  }
                }
                """);
        assertThat(all).containsExactly(
                "v.hcl:4: job \"j\" > group \"g\" > volume \"a\" > source: volume has an empty source (the name of a"
                        + " client host_volume)",
                "v.hcl:8: job \"j\" > group \"g\" > volume \"b\" > type: volume has unrecognized type \"hots\" (host"
                        + " or csi; Drover has host volumes only)",
                "v.hcl:14: job \"j\" > group \"g\" > volume \"c\" > per_alloc: volume cannot be per_alloc for system"
                        + " or sysbatch jobs",
                "v.hcl:15: job \"j\" > group \"g\" > volume \"c\" > access_mode: single-node-reader-only volumes must"
                        + " be read-only",
                "v.hcl:17: job \"j\" > group \"g\" > volume \"a\": duplicate volume name (first at line 4)",
                "v.hcl:25: job \"j\" > group \"g\" > task \"t\" > volume_mount > volume: Volume Mount (0) references"
                        + " undefined volume nope (the group's volumes: a, b, c)",
                "v.hcl:30: job \"j\" > group \"g\" > task \"t\" > volume_mount > destination: volume_mount"
                        + " destination path \"../../etc\" escapes the task directory (it must stay inside the task,"
                        + " e.g. \"/data\")",
                "v.hcl:31: job \"j\" > group \"g\" > task \"t\" > volume_mount > propagation_mode: volume mount has"
                        + " an invalid propagation mode: \"sideways\" (allowed: private, host-to-task, bidirectional)",
                "v.hcl:33: job \"j\" > group \"g\" > task \"t\" > volume_mount > destination: is required: the path"
                        + " inside the task the volume appears at (e.g. destination = \"/data\")",
                "v.hcl:36: job \"j\" > group \"g\" > task \"t\" > volume_mount > volume: volume mount references an"
                        + " empty volume",
                "v.hcl:37: job \"j\" > group \"g\" > task \"t\" > volume_mount > destination: volume_mount"
                        + " destination \"/\" is the task's root; it must name a directory inside the task (e.g."
                        + " \"/data\")");
    }

    @Test
    void aCsiVolumeStaysRefusedNamingCsi() {
        List<String> all = problems("""
                job "j" {
                  group "g" {
                    volume "c" {
                      type            = "csi"
                      source          = "ebs"
                      attachment_mode = "file-system"
                      access_mode     = "single-node-writer"
                    }
                    task "t" {
                      driver = "exec"
                      config { command = "/bin/true" }
                      volume_mount {
                        volume      = "c"
                        destination = "/data"
                      }
                    }
                  }
                }
                """);
        assertThat(all).singleElement().asString().contains("volume").contains("needs CSI");
    }

    @Test
    void nomadsJsonShapeReadsTheSame() throws Exception {
        Job json = JobFileParser.parse("v.json", """
                {"Job": {"ID": "j", "TaskGroups": [{"Name": "g",
                  "Volumes": {"data": {"Name": "data", "Type": "host", "Source": "shared", "ReadOnly": true,
                                       "Sticky": false, "PerAlloc": false, "AccessMode": "", "AttachmentMode": "",
                                       "MountOptions": null}},
                  "Tasks": [{"Name": "t", "Driver": "exec", "Config": {"command": "/bin/true"},
                    "VolumeMounts": [{"Volume": "data", "Destination": "/srv/data", "ReadOnly": false,
                                      "PropagationMode": "private", "SELinuxLabel": ""}]}]}]}}
                """.getBytes(StandardCharsets.UTF_8));
        TaskGroup g = json.groups().get(0);
        assertThat(g.runtime().volumes().get("data"))
                .isEqualTo(new VolumeRequest("data", "host", "shared", true, false, false, "", ""));
        assertThat(g.tasks().get(0).runtime().volumeMounts())
                .containsExactly(new VolumeMount("data", "/srv/data", false, "private", ""));
    }
}
