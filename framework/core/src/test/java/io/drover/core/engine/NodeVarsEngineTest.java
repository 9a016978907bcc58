package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node's attributes in a task (Nomad's taskenv node attributes): {@code ${attr.cpu.arch}} in an artifact
 * source (the corpus jobs guybarros/vault and brucellino/github-runner download
 * {@code ..._${attr.kernel.name}_${attr.cpu.arch}.zip}), in env and in args, with {@code ${node.*}} and the node's
 * {@code ${meta.*}}, the job's own meta winning. Real engine, real raw_exec, a local artifact.
 */
@ExtendWith(ProcessLeakCheck.class)
class NodeVarsEngineTest {
    @TempDir
    Path dataDir;

    @TempDir
    Path files;

    @Test
    void nodeAttributesResolveInArtifactSourcesEnvAndArgs() throws Exception {
        Files.writeString(files.resolve("tool-x86_64.txt"), "tool\n");
        // Drover copies only what every user may read (docs/jobs.md, artifact)
        Files.setPosixFilePermissions(files, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(files.resolve("tool-x86_64.txt"),
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        String job = """
                job "nodevars" {
                  type = "batch"
                  meta { rack = "job-rack" }
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    task "t" {
                      driver = "raw_exec"
                      artifact {
                        source      = "file://%s/tool-${attr.cpu.arch}.txt"
                        destination = "local/"
                      }
                      env {
                        %s
                        ARCH = "${attr.cpu.arch}"
                      }
                      config {
                        command = "sh"
                        args = ["-c", "cat local/tool-x86_64.txt; echo ${attr.kernel.name} ${node.unique.id} ${node.datacenter} ${node.region} $ARCH ${meta.rack} ${meta.zone}"]
                      }
                    }
                  }
                }
                """.formatted(files.toAbsolutePath(), RawExecJobs.markerEnv());
        Map<String, String> node = Map.of("attr.cpu.arch", "x86_64", "attr.kernel.name", "linux",
                "node.unique.id", "n-1", "node.datacenter", "dc9", "node.region", "global", "meta.rack", "node-rack",
                "meta.zone", "z1");
        try (RawExecJobs jobs = new RawExecJobs(dataDir, EngineRuntime.real(2), node)) {
            AllocationState done = jobs.run(job);
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            assertThat(jobs.stdout(done, "t")).isEqualTo("tool\nlinux n-1 dc9 global x86_64 job-rack z1\n");
        }
    }
}
