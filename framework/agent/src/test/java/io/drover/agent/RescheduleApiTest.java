package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rescheduled allocation in the API as Nomad's clients read it ({@code PreviousAllocation},
 * {@code NextAllocation}, {@code RescheduleTracker}), through a real agent with the mock plugin JAR, and the same
 * lineage after an agent restart (rebuilt from the recorded allocations).
 */
class RescheduleApiTest {
    private static final String JOB = """
            job "again" {
              type = "batch"
              group "g" {
                restart { attempts = 0 }
                reschedule {
                  attempts       = 1
                  interval       = "1h"
                  delay          = "0s"
                  delay_function = "constant"
                }
                task "t" {
                  driver = "mock"
                  config {
                    run_for   = "10ms"
                    exit_code = 1
                  }
                }
              }
            }
            """;

    @TempDir
    Path tmp;

    private static JsonNode allocs(TestAgent agent) throws Exception {
        return agent.get("/v1/job/again/allocations").json();
    }

    private static void assertLineage(TestAgent agent) throws Exception {
        JsonNode list = allocs(agent);
        assertThat(list).hasSize(2);
        // tell them apart by their link, not by the list's order
        JsonNode failed = list.get(0).get("PreviousAllocation").asText().isEmpty() ? list.get(0) : list.get(1);
        JsonNode replacement = failed == list.get(0) ? list.get(1) : list.get(0);
        assertThat(failed.get("ClientStatus").asText()).isEqualTo("failed");
        assertThat(replacement.get("ClientStatus").asText()).isEqualTo("failed");
        assertThat(replacement.get("Name").asText()).isEqualTo(failed.get("Name").asText());
        assertThat(failed.get("NextAllocation").asText()).isEqualTo(replacement.get("ID").asText());
        assertThat(failed.get("RescheduleTracker").isNull()).isTrue();
        assertThat(replacement.get("PreviousAllocation").asText()).isEqualTo(failed.get("ID").asText());
        assertThat(replacement.get("NextAllocation").asText()).isEmpty();

        JsonNode full = agent.get("/v1/allocation/" + replacement.get("ID").asText()).json();
        JsonNode events = full.get("RescheduleTracker").get("Events");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).get("PrevAllocID").asText()).isEqualTo(failed.get("ID").asText());
        assertThat(events.get(0).get("PrevNodeID").asText()).isNotEmpty();
        assertThat(events.get(0).get("Delay").asLong()).isZero();
        assertThat(events.get(0).get("RescheduleTime").asLong()).isPositive();
        // the failed one keeps its task's events
        JsonNode old = agent.get("/v1/allocation/" + failed.get("ID").asText()).json();
        assertThat(old.get("TaskStates").get("t").get("Events").size()).isGreaterThan(2);
    }

    @Test
    void theReplacementLinksToTheFailedOneAlsoAfterARestart() throws Exception {
        try (TestAgent agent = TestAgent.start(tmp)) {
            TestAgent.Resp r = agent.call("PUT", "/v1/jobs", PlacementApiTest.hcl(JOB));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            Await.until("the replacement failed too", () -> {
                try {
                    JsonNode list = allocs(agent);
                    return list.size() == 2 && list.get(0).get("ClientStatus").asText().equals("failed")
                            && list.get(1).get("ClientStatus").asText().equals("failed");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertLineage(agent);
        }
        try (TestAgent agent = TestAgent.start(tmp)) {
            assertLineage(agent); // 1 attempt used: nothing new placed, the links rebuilt
        }
    }
}
