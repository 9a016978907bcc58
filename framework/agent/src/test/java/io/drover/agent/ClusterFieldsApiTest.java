package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The blocks a cluster gives their meaning come back in the job's JSON in Nomad's names and shape, register again
 * from that JSON unchanged, and the job's priority is its evaluations' (session 9, issue 15).
 */
class ClusterFieldsApiTest extends RunningAgentTest {
    private static final String JOB = """
            job "kept" {
              type        = "batch"
              priority    = 70
              region      = "eu"
              namespace   = "team"
              datacenters = ["dc1"]
              all_at_once = true
              update {
                max_parallel     = 2
                min_healthy_time = "10s"
              }
              reschedule { attempts = 0 }
              spread {
                attribute = "${node.datacenter}"
                target "dc1" { percent = 100 }
              }
              group "g" {
                max_run_duration = "2h"
                ephemeral_disk {
                  size   = 500
                  sticky = true
                }
                scaling {
                  min = 1
                  max = 3
                }
                affinity {
                  attribute = "${node.class}"
                  value     = "fast"
                  weight    = 30
                }
                constraint {
                  attribute = "${attr.driver.mock}"
                  value     = "1"
                }
                task "t" {
                  driver = "mock"
                  config { run_for = "1h" }
                  resources { disk = 150 }
                  identity {
                    name = "api"
                    aud  = ["api.example"]
                    env  = true
                  }
                }
              }
            }
            """;

    @TempDir
    Path tmp;

    /** The store reads the kept fields back as they were: the same job registered again is no new version. */
    @Test
    void theyOutliveAnAgentRestartAndTheSameJobAgainIsNoNewVersion() throws Exception {
        JsonNode before;
        try (TestAgent agent = TestAgent.start(tmp)) {
            TestAgent.Resp r = agent.call("PUT", "/v1/jobs", PlacementApiTest.hcl(JOB));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            before = agent.get("/v1/job/kept").json();
        }
        try (TestAgent agent = TestAgent.start(tmp)) {
            JsonNode after = agent.get("/v1/job/kept").json();
            for (String key : List.of("Priority", "Update", "Reschedule", "Spreads", "AllAtOnce", "TaskGroups")) {
                assertThat(after.path(key)).as(key).isEqualTo(before.path(key));
            }
            TestAgent.Resp again = agent.call("PUT", "/v1/jobs", PlacementApiTest.hcl(JOB));
            assertThat(again.status()).as(again.body()).isEqualTo(200);
            assertThat(agent.get("/v1/job/kept").json().path("Version").asInt())
                    .isEqualTo(before.path("Version").asInt());
            agent.call("DELETE", "/v1/job/kept", null);
        }
    }

    @Test
    void theJobsJsonKeepsThemAndRegistersAgainAsItIs() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", PlacementApiTest.hcl(JOB));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        JsonNode eval = api.get("/v1/evaluation/" + r.json().path("EvalID").asText()).json();
        assertThat(eval.path("Priority").asInt()).isEqualTo(70);

        JsonNode job = api.get("/v1/job/kept").json();
        assertThat(job.path("Priority").asInt()).isEqualTo(70);
        assertThat(job.path("Region").asText()).isEqualTo("eu");
        assertThat(job.path("Namespace").asText()).isEqualTo("team");
        assertThat(job.path("AllAtOnce").asBoolean()).isTrue();
        assertThat(job.path("Update").toString()).isEqualTo("{\"MaxParallel\":2,\"MinHealthyTime\":10000000000}");
        assertThat(job.path("Reschedule").toString()).isEqualTo("{\"Attempts\":0}");
        assertThat(job.path("Spreads").toString()).isEqualTo("[{\"Attribute\":\"${node.datacenter}\",\"Weight\":50,"
                + "\"SpreadTarget\":[{\"Value\":\"dc1\",\"Percent\":100}]}]");
        JsonNode group = job.path("TaskGroups").get(0);
        assertThat(group.path("EphemeralDisk").toString()).isEqualTo("{\"SizeMB\":500,\"Sticky\":true}");
        assertThat(group.path("Scaling").toString()).isEqualTo("{\"Min\":1,\"Max\":3}");
        assertThat(group.path("Affinities").toString()).isEqualTo(
                "[{\"LTarget\":\"${node.class}\",\"RTarget\":\"fast\",\"Operand\":\"=\",\"Weight\":30}]");
        assertThat(group.path("Constraints").toString()).isEqualTo(
                "[{\"LTarget\":\"${attr.driver.mock}\",\"RTarget\":\"1\",\"Operand\":\"=\"}]");
        assertThat(group.path("Tasks").get(0).path("Resources").path("DiskMB").asInt()).isEqualTo(150);
        assertThat(group.path("MaxRunDuration").asLong()).isEqualTo(7_200_000_000_000L);
        assertThat(group.path("Tasks").get(0).path("Identities").toString()).isEqualTo("[{\"Name\":\"api\","
                + "\"Audience\":[\"api.example\"],\"ChangeMode\":\"noop\",\"Env\":true,\"File\":false}]");

        // the job's own JSON, as `nomad job inspect` prints it, registers again and reads back the same
        ObjectNode again = TestAgent.JSON.createObjectNode();
        again.set("Job", job);
        TestAgent.Resp r2 = api.call("PUT", "/v1/jobs", again.toString());
        assertThat(r2.status()).as(r2.body()).isEqualTo(200);
        JsonNode back = api.get("/v1/job/kept").json();
        for (String key : List.of("Priority", "Region", "Namespace", "AllAtOnce", "Update", "Reschedule", "Spreads",
                "Datacenters", "TaskGroups")) {
            assertThat(back.path(key)).as(key).isEqualTo(job.path(key));
        }
        assertThat(back.path("Version").asInt()).isEqualTo(job.path("Version").asInt() + 1);
        assertThat(api.get("/v1/evaluation/" + r2.json().path("EvalID").asText()).json().path("Priority").asInt())
                .isEqualTo(70);
    }
}
