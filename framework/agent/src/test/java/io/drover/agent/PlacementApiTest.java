package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Constraints decided for this node, and system jobs, over the API (issue 15). */
class PlacementApiTest extends RunningAgentTest {
    static String hcl(String text) {
        return "{\"JobHCL\": " + TestAgent.JSON.valueToTree(text) + "}";
    }

    @Test
    void aBridgeNetworkIsKeptAndNotPlacedAsNomadsMissingNetwork() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", hcl("""
                job "bridged" {
                  group "db" {
                    network {
                      mode = "bridge"
                      port "db" { to = 5432 }
                    }
                    service {
                      provider = "nomad"
                      port = "db"
                    }
                    task "t" {
                      driver = "mock"
                      config { run_for = "1h" }
                    }
                  }
                }
                """));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("Allocations")).isEmpty();
        assertThat(r.json().path("PlacementFailures").get(1).asText()).startsWith(
                "  * Constraint \"missing network\": 1 nodes excluded by filter (this node has host networking only");
        JsonNode eval = api.get("/v1/evaluation/" + r.json().path("EvalID").asText()).json();
        assertThat(eval.path("FailedTGAllocs").path("db").path("ConstraintFiltered").path("missing network").asInt())
                .isEqualTo(1);
        JsonNode job = api.get("/v1/job/bridged").json();
        assertThat(job.path("TaskGroups").get(0).path("Networks").get(0).path("Mode").asText()).isEqualTo("bridge");
        assertThat(api.get("/v1/services").json()).as("nothing runs, nothing is registered").isEmpty();
    }

    @Test
    void aGroupThisNodeFailsIsNotPlacedAndTheEvaluationSaysWhyInNomadsWords() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", hcl("""
                job "picky" {
                  type = "batch"
                  group "windows" {
                    count = 2
                    constraint {
                      attribute = "${attr.kernel.name}"
                      value     = "windows"
                    }
                    task "t" {
                      driver = "mock"
                      config { run_for = "10ms" }
                    }
                  }
                  group "here" {
                    constraint {
                      attribute = "${attr.driver.mock}"
                      value     = "1"
                    }
                    constraint {
                      attribute = "${node.unique.name}"
                      operator  = "is_set"
                    }
                    task "t" {
                      driver = "mock"
                      config { run_for = "10ms" }
                    }
                  }
                }
                """));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("Allocations")).hasSize(1);
        assertThat(r.json().path("PlacementFailures").toString()).isEqualTo(
                "[\"Task Group \\\"windows\\\" (failed to place 2 allocations):\","
                        + "\"  * Constraint \\\"${attr.kernel.name} = windows\\\": 1 nodes excluded by filter\"]");
        String alloc = r.json().path("Allocations").get(0).asText();
        assertThat(api.get("/v1/allocation/" + alloc).json().path("TaskGroup").asText()).isEqualTo("here");

        JsonNode eval = api.get("/v1/evaluation/" + r.json().path("EvalID").asText()).json();
        JsonNode failed = eval.path("FailedTGAllocs").path("windows");
        assertThat(failed.path("NodesFiltered").asInt()).isEqualTo(1);
        assertThat(failed.path("ConstraintFiltered").path("${attr.kernel.name} = windows").asInt()).isEqualTo(1);
        assertThat(eval.path("FailedTGAllocs").has("here")).isFalse();
    }

    @Test
    void aSystemJobRunsOneAllocationOfEachGroupOnThisNode() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", hcl("""
                job "everywhere" {
                  type = "system"
                  group "a" {
                    task "t" {
                      driver = "mock"
                      config { run_for = "1h" }
                    }
                  }
                  group "b" {
                    task "t" {
                      driver = "mock"
                      config { run_for = "1h" }
                    }
                  }
                }
                """));
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.json().path("Allocations")).hasSize(2);
        JsonNode job = api.get("/v1/job/everywhere").json();
        assertThat(job.path("Type").asText()).isEqualTo("system");
        assertThat(api.call("DELETE", "/v1/job/everywhere", null).status()).isEqualTo(200);
    }
}
