package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job both periodic and parameterized, as Nomad has it: the job itself launches nothing on its schedule and is
 * dispatched; each dispatched job keeps the schedule and is a periodic parent, whose children run.
 */
class PeriodicDispatchApiTest {
    @TempDir
    Path tmp;

    private static String enc(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8);
    }

    @Test
    void eachDispatchIsAPeriodicParentAndTheJobItselfHasNoSchedule() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp reg = api.call("PUT", "/v1/jobs", PlacementApiTest.hcl("""
                    job "report" {
                      type = "batch"
                      periodic {
                        cron             = "0 3 1 1 *"
                        prohibit_overlap = true
                      }
                      parameterized {
                        meta_required = ["who"]
                      }
                      group "g" {
                        task "t" {
                          driver = "mock"
                          config { run_for = "10ms" }
                        }
                      }
                    }
                    """));
            assertThat(reg.status()).as(reg.body()).isEqualTo(200);
            assertThat(reg.json().path("Allocations")).isEmpty();
            JsonNode parent = api.get("/v1/job/report").json();
            assertThat(parent.path("Periodic").path("Spec").asText()).isEqualTo("0 3 1 1 *");
            assertThat(parent.path("ParameterizedJob").isNull()).isFalse();
            TestAgent.Resp notTracked = api.call("POST", "/v1/job/report/periodic/force", null);
            assertThat(notTracked.status()).isEqualTo(400);
            assertThat(notTracked.error()).isEqualTo("can't force run non-tracked job \"report\" (default)");

            TestAgent.Resp d = api.call("POST", "/v1/job/report/dispatch", "{\"Meta\": {\"who\": \"ann\"}}");
            assertThat(d.status()).as(d.body()).isEqualTo(200);
            String child = d.json().path("DispatchedJobID").asText();
            assertThat(d.json().path("EvalID").asText()).as("Nomad creates no evaluation for a periodic job")
                    .isEmpty();
            JsonNode job = api.get("/v1/job/" + enc(child)).json();
            assertThat(job.path("Dispatched").asBoolean()).isTrue();
            assertThat(job.path("Periodic").path("Spec").asText()).isEqualTo("0 3 1 1 *");
            assertThat(job.path("Status").asText()).isEqualTo("running");
            assertThat(api.get("/v1/job/" + enc(child) + "/allocations").json()).isEmpty();

            TestAgent.Resp f = api.call("POST", "/v1/job/" + enc(child) + "/periodic/force", null);
            assertThat(f.status()).as(f.body()).isEqualTo(200);
            JsonNode grandchildren = api.get("/v1/jobs?prefix=" + enc(child + "/periodic-")).json();
            assertThat(grandchildren).hasSize(1);
            String grandchild = grandchildren.get(0).path("ID").asText();
            assertThat(grandchildren.get(0).path("ParentID").asText()).isEqualTo(child);
            JsonNode allocs = api.get("/v1/job/" + enc(grandchild) + "/allocations").json();
            assertThat(allocs).hasSize(1);
            String alloc = allocs.get(0).path("ID").asText();
            Await.until("the periodic child of the dispatch ran", () -> api.alloc(alloc).terminal());
            assertThat(api.alloc(alloc).clientStatus()).isEqualTo(io.drover.core.state.ClientStatus.COMPLETE);
        }
    }
}
