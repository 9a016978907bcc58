package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a real raw_exec task sees at run time: meta (task over group over job) as NOMAD_META_* in both spellings and
 * through ${meta.x} in args and env, and Nomad's runtime variables (region, namespace, dc, resources, short id).
 */
@ExtendWith(ProcessLeakCheck.class)
class RuntimeEnvTest {
    @TempDir
    Path dataDir;

    @Test
    void metaAndRuntimeVariablesReachTheTask() throws Exception {
        String job = """
                job "meta-job" {
                  region = "europe"
                  namespace = "apps"
                  datacenters = ["par1", "ams1"]
                  type = "batch"
                  meta {
                    owner = "job-owner"
                    tier = "job-tier"
                    only_job = "j"
                  }
                  group "g" {
                    meta {
                      tier = "group-tier"
                      Mixed = "m"
                    }
                    task "show" {
                      driver = "raw_exec"
                      meta { owner = "task-owner" }
                      resources {
                        cpu = 250
                        memory = 128
                        memory_max = 256
                      }
                      env {
                        %s
                        FROM_META = "${meta.tier}/${NOMAD_META_owner}"
                      }
                      config {
                        command = "sh"
                        args = ["-c", "echo owner=$NOMAD_META_owner OWNER=$NOMAD_META_OWNER tier=$NOMAD_META_tier only=$NOMAD_META_only_job mixed=$NOMAD_META_Mixed/$NOMAD_META_MIXED arg=${meta.owner} env=$FROM_META; echo region=$NOMAD_REGION ns=$NOMAD_NAMESPACE dc=$NOMAD_DC cpu=$NOMAD_CPU_LIMIT mem=$NOMAD_MEMORY_LIMIT max=$NOMAD_MEMORY_MAX_LIMIT; echo short=$NOMAD_SHORT_ALLOC_ID id=$NOMAD_ALLOC_ID parent=${NOMAD_JOB_PARENT_ID-unset}"]
                      }
                    }
                  }
                }
                """.formatted(RawExecJobs.markerEnv());
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job);
            assertThat(done.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
            String out = jobs.stdout(done, "show");
            assertThat(out).contains("owner=task-owner OWNER=task-owner tier=group-tier only=j mixed=m/m "
                    + "arg=task-owner env=group-tier/task-owner");
            assertThat(out).contains("region=europe ns=apps dc=par1 cpu=250 mem=128 max=256");
            String id = done.id();
            assertThat(out).contains("short=" + id.substring(0, 8) + " id=" + id + " parent=unset");
        }
    }

    @Test
    void defaultsAreNomads() throws Exception {
        String job = """
                job "plain" {
                  type = "batch"
                  group "g" {
                    task "show" {
                      driver = "raw_exec"
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "echo region=$NOMAD_REGION ns=$NOMAD_NAMESPACE dc=$NOMAD_DC cpu=$NOMAD_CPU_LIMIT mem=$NOMAD_MEMORY_LIMIT max=${NOMAD_MEMORY_MAX_LIMIT-unset}"]
                      }
                    }
                  }
                }
                """.formatted(RawExecJobs.markerEnv());
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job);
            assertThat(jobs.stdout(done, "show"))
                    .contains("region=global ns=default dc=dc1 cpu=100 mem=300 max=unset");
        }
    }
}
