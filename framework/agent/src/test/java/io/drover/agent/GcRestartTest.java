package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A garbage-collected record survives an agent restart unchanged; a new agent empties a leftover gc-trash. */
class GcRestartTest {
    @TempDir
    Path tmp;

    @Test
    void aCollectedRecordComesBackUnchangedAndIsNotCollectedAgain() throws Exception {
        String id;
        JsonNode collected;
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp r = api.call("PUT", "/v1/jobs", AgentRestartTest.HCL_JOB);
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            id = r.json().path("Allocations").get(0).asText();
            Await.until("allocation complete", () -> api.alloc(id).terminal());
            api.call("PUT", "/v1/system/gc", null);
            Await.until("collected", () -> api.alloc(id).destroyedAt() >= 0);
            collected = api.get("/v1/allocation/" + id).json();
        }
        Path leftover = Files.createDirectories(tmp.resolve("data").resolve("gc-trash").resolve("old")
                .resolve("alloc").resolve("logs"));
        Files.writeString(leftover.resolve("x.stdout.0"), "left by a killed agent");

        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.get("/v1/allocation/" + id).json()).isEqualTo(collected);
            assertThat(api.agent.gc().collectNow().get().victims()).as("nothing left to collect").isEmpty();
            Await.until("trash emptied", () -> !Files.exists(tmp.resolve("data").resolve("gc-trash").resolve("old")));
            assertThat(api.get("/v1/allocation/" + id).json()).as("not collected twice").isEqualTo(collected);
            assertThat(api.get("/v1/job/hcl-job/allocations").json()).hasSize(1);
        }
    }
}
