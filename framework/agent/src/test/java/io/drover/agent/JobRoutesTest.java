package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.parse.JobDriverCheck;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.ClientStatus;
import io.drover.driver.api.TaskDriver;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class JobRoutesTest extends RunningAgentTest {
    static final String API_JOB = """
            {"Job": {"ID": "api-job", "Name": "api-job", "Type": "batch", "Datacenters": ["dc1"],
              "TaskGroups": [{"Name": "g", "Count": 1,
                "Tasks": [{"Name": "web", "Driver": "mock",
                           "Config": {"run_for": "50ms", "stdout_string": "hello"}}]}]}}
            """;

    @Test
    void registeringANomadJsonJobRunsItToCompletion() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", API_JOB);
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        // one evaluation per registration (issue 15; was "" before), complete at once on one node
        String evalId = r.json().path("EvalID").asText();
        assertThat(evalId).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        JsonNode eval = api.get("/v1/evaluation/" + evalId).json();
        assertThat(eval.path("Status").asText()).isEqualTo("complete");
        assertThat(eval.path("JobID").asText()).isEqualTo("api-job");
        assertThat(eval.path("CreateIndex").asLong()).isEqualTo(r.json().path("EvalCreateIndex").asLong())
                .isGreaterThan(r.json().path("JobModifyIndex").asLong());
        JsonNode allocs = r.json().path("Allocations");
        assertThat(allocs).hasSize(1);
        String id = allocs.get(0).asText();

        Await.until("allocation complete over the API",
                () -> call(() -> api.get("/v1/allocation/" + id).json().path("ClientStatus").asText())
                        .equals("complete"));
        JsonNode alloc = api.get("/v1/allocation/" + id).json();
        assertThat(alloc.path("JobID").asText()).isEqualTo("api-job");
        assertThat(alloc.path("TaskStates").path("web").path("State").asText()).isEqualTo("dead");
        assertThat(api.get("/v1/job/api-job").json().path("Status").asText()).isEqualTo("dead");
    }

    @Test
    void listReadAndAllocationsOfARegisteredJob() throws Exception {
        var reg = api.agent.jobs().register(batch("web-job", 2, task("web", "run_for", "10s")));
        api.agent.jobs().recorded(reg).get(20, java.util.concurrent.TimeUnit.SECONDS); // listed once on disk

        JsonNode list = api.get("/v1/jobs").json();
        assertThat(list).hasSize(1);
        JsonNode stub = list.get(0);
        assertThat(stub.path("ID").asText()).isEqualTo("web-job");
        assertThat(stub.path("Type").asText()).isEqualTo("batch");
        assertThat(stub.path("Status").asText()).isEqualTo("running");
        assertThat(stub.path("Stop").asBoolean()).isFalse();
        assertThat(stub.path("JobSummary").path("Summary").path("g").path("Running").asLong()
                + stub.path("JobSummary").path("Summary").path("g").path("Starting").asLong()).isEqualTo(2);

        TestAgent.Resp job = api.get("/v1/job/web-job");
        assertThat(job.status()).isEqualTo(200);
        assertThat(job.contentType()).startsWith("application/json");
        assertThat(job.json().path("TaskGroups").get(0).path("Tasks").get(0).path("Driver").asText())
                .isEqualTo("mock");
        assertThat(job.json().path("TaskGroups").get(0).path("Tasks").get(0).path("KillTimeout").asLong())
                .isEqualTo(1_000_000_000L);

        JsonNode allocs = api.get("/v1/job/web-job/allocations").json();
        assertThat(allocs).hasSize(2);
        assertThat(allocs.findValuesAsText("ID"))
                .containsExactlyInAnyOrderElementsOf(reg.placed().stream().map(a -> a.id()).toList());
        assertThat(allocs.get(0).path("TaskStates").path("web").path("State").asText()).isNotEmpty();
    }

    @Test
    void deleteStopsEveryAllocationAndTheJobBecomesDead() throws Exception {
        var reg = api.agent.jobs().register(batch("long", 2, task("web", "run_for", "1h")));
        TestAgent.Resp r = api.call("DELETE", "/v1/job/long", null);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().has("JobModifyIndex")).isTrue();
        for (var a : reg.placed()) {
            assertThat(api.agent.engine().terminal(a.id()).get(20, TimeUnit.SECONDS).clientStatus())
                    .isIn(ClientStatus.COMPLETE, ClientStatus.FAILED);
        }
        JsonNode job = api.get("/v1/job/long").json();
        assertThat(job.path("Stop").asBoolean()).isTrue();
        assertThat(job.path("Status").asText()).isEqualTo("dead");
    }

    @Test
    void deleteWithPurgeForgetsTheJobButNotItsAllocations() throws Exception {
        String id = api.agent.jobs().register(batch("gone", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        assertThat(api.call("DELETE", "/v1/job/gone?purge=true", null).status()).isEqualTo(200);
        assertThat(api.get("/v1/job/gone").status()).isEqualTo(404);
        assertThat(api.get("/v1/jobs").json()).isEmpty();
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        assertThat(api.get("/v1/allocation/" + id).json().path("DesiredStatus").asText()).isEqualTo("stop");
    }

    @Test
    void reRegisteringStopsTheOldAllocationsAndKeepsThemListed() throws Exception {
        var first = api.agent.jobs().register(batch("again", 1, task("web", "run_for", "1h")));
        // a changed job: registering an unchanged one is a no-op (below)
        var second = api.agent.jobs().register(batch("again", 1, task("web", "run_for", "2h")));
        String oldId = first.placed().get(0).id();
        assertThat(api.agent.engine().terminal(oldId).get(20, TimeUnit.SECONDS).terminal()).isTrue();
        JsonNode job = api.get("/v1/job/again").json();
        assertThat(job.path("Version").asInt()).isEqualTo(1);
        assertThat(api.get("/v1/job/again/allocations").json().findValuesAsText("ID"))
                .containsExactly(oldId, second.placed().get(0).id());
        assertThat(job.path("Status").asText()).isEqualTo("running");
    }

    @Test
    void registeringTheSameJobAgainIsANoOpThatPlacesNothing() throws Exception {
        TestAgent.Resp first = api.call("PUT", "/v1/jobs", API_JOB);
        assertThat(first.status()).as(first.body()).isEqualTo(200);
        TestAgent.Resp again = api.call("PUT", "/v1/jobs", API_JOB); // a client's retry, say after a lost answer
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("Allocations")).isEqualTo(first.json().path("Allocations"));
        assertThat(again.json().path("JobModifyIndex")).isEqualTo(first.json().path("JobModifyIndex"));
        assertThat(api.get("/v1/job/api-job/allocations").json()).hasSize(1);
        assertThat(api.get("/v1/job/api-job").json().path("Version").asInt()).isZero();

        assertThat(api.call("DELETE", "/v1/job/api-job", null).status()).isEqualTo(200);
        TestAgent.Resp rerun = api.call("PUT", "/v1/jobs", API_JOB); // a stopped job runs again, as in Nomad
        assertThat(rerun.json().path("Allocations").get(0)).isNotEqualTo(first.json().path("Allocations").get(0));
        assertThat(api.get("/v1/job/api-job").json().path("Version").asInt()).isEqualTo(1);
    }

    @Test
    void unknownJobIs404WithAJsonError() throws Exception {
        for (String path : new String[] {"/v1/job/nope", "/v1/job/nope/allocations"}) {
            TestAgent.Resp r = api.get(path);
            assertThat(r.status()).isEqualTo(404);
            assertThat(r.error()).contains("nope");
        }
        assertThat(api.call("DELETE", "/v1/job/nope", null).status()).isEqualTo(404);
    }

    @Test
    void aJobWithSeveralProblemsIsRefusedWithAllOfThemOnePerLine() throws Exception {
        String hcl = "job \"j\" {\n  group \"g1\" {\n    task \"../x\" {\n      driver = \"mock\"\n    }\n  }\n"
                + "  group \"g2\" {\n    task \"/tmp/y\" {\n      driver = \"mock\"\n    }\n  }\n}\n";
        TestAgent.Resp r = api.call("PUT", "/v1/jobs",
                new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(java.util.Map.of("JobHCL", hcl)));

        assertThat(r.status()).isEqualTo(400);
        assertThat(r.error().lines().toList()).satisfiesExactly(
                l -> assertThat(l).startsWith("request.hcl:3: job \"j\" > group \"g1\" > task \"../x\": the task name "),
                l -> assertThat(l).startsWith("request.hcl:8: job \"j\" > group \"g2\" > task \"/tmp/y\": the task name "));
        assertThat(api.get("/v1/job/j").status()).isEqualTo(404); // nothing registered
    }

    @Test
    void badBodiesAreRefusedBeforeTheParserWithFittingStatuses() throws Exception {
        TestAgent.Resp bad = api.call("PUT", "/v1/jobs", "{\"Job\": {");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.error()).startsWith("invalid JSON");

        assertThat(api.call("PUT", "/v1/jobs", "").status()).isEqualTo(400);
        assertThat(api.call("PUT", "/v1/jobs", "[1,2]").error()).contains("{\"Job\"");
        assertThat(api.call("PUT", "/v1/jobs", "{\"Job\": 1} trailing").status()).isEqualTo(400);

        String deep = "{\"Job\": " + "[".repeat(5000) + "]".repeat(5000) + "}";
        TestAgent.Resp deepResp = api.call("PUT", "/v1/jobs", deep);
        assertThat(deepResp.status()).isEqualTo(400);
        assertThat(deepResp.error()).contains("nesting depth");

        String huge = "{\"Job\": {\"ID\": \"" + "x".repeat(2 << 20) + "\"}}";
        TestAgent.Resp big = api.call("PUT", "/v1/jobs", huge);
        assertThat(big.status()).isEqualTo(413);
        assertThat(big.error()).contains("larger than");

        assertThat(api.get("/v1/jobs").status()).isEqualTo(200); // still serving
    }

    @Test
    void wrongMethodIs405AndUnknownRouteIs404() throws Exception {
        TestAgent.Resp r = api.call("PATCH", "/v1/jobs", "{}");
        assertThat(r.status()).isEqualTo(405);
        assertThat(r.error()).contains("GET").contains("PUT");
        assertThat(api.call("POST", "/v1/job/x", "{}").status()).isEqualTo(405);
        TestAgent.Resp nf = api.get("/v1/nothing/here");
        assertThat(nf.status()).isEqualTo(404);
        assertThat(nf.contentType()).startsWith("application/json");
    }

    interface Call<T> {
        T get() throws Exception;
    }

    static <T> T call(Call<T> c) {
        try {
            return c.get();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
