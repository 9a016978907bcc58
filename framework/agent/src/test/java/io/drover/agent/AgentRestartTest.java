package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful stop and a new agent on the same data_dir: jobs (rebuilt from their allocations), allocations and
 * events come back, and a JobHCL registration works like the JSON one.
 */
class AgentRestartTest {
    static final String HCL_JOB = TestAgent.JSON.createObjectNode().put("JobHCL", """
            job "hcl-job" {
              type = "batch"
              group "g" {
                task "web" {
                  driver = "mock"
                  config {
                    run_for = "20ms"
                  }
                }
              }
            }
            """).toString();

    @TempDir
    Path tmp;

    @Test
    void jobsAllocationsAndEventsSurviveARestart() throws Exception {
        String id;
        JsonNode before;
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp r = api.call("PUT", "/v1/jobs", HCL_JOB);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            id = r.json().path("Allocations").get(0).asText();
            Await.until("allocation complete", () -> api.alloc(id).terminal());
            before = api.get("/v1/allocation/" + id).json();
        }
        assertThat(Files.isDirectory(tmp.resolve("data").resolve(Agent.STATE_DIR))).isTrue();

        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.get("/v1/allocation/" + id).json()).isEqualTo(before);
            JsonNode jobs = api.get("/v1/jobs").json();
            assertThat(jobs).hasSize(1);
            assertThat(jobs.get(0).path("ID").asText()).isEqualTo("hcl-job");
            assertThat(jobs.get(0).path("Status").asText()).isEqualTo("dead");
            assertThat(api.get("/v1/job/hcl-job/allocations").json().get(0).path("ID").asText()).isEqualTo(id);
        }
    }

    @Test
    void aBadJobHclIsA400NamingRequestHclAndLine() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            String bad = TestAgent.JSON.createObjectNode().put("JobHCL", "job \"x\" {\n  bogus = 1\n}\n").toString();
            TestAgent.Resp r = api.call("PUT", "/v1/jobs", bad);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.error()).startsWith("request.hcl:2:");
        }
    }
}
