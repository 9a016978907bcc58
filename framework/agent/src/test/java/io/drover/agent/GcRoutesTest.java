package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.state.AllocationState;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code PUT /v1/system/gc} runs the real client GC; the collected allocation stays readable through the API. */
class GcRoutesTest extends RunningAgentTest {
    @Test
    void systemGcDestroysTerminalAllocationsAndTheirRecordsStayReadableWithEveryEvent() throws Exception {
        AllocationState placed = api.agent.jobs().register(MockJobs.batch("gcme", 1,
                MockJobs.task("main", "run_for", "10ms"), MockJobs.poststop("post", "run_for", "10ms")))
                .placed().get(0);
        Await.until("terminal", () -> api.agent.engine().allocation(placed.id()).orElseThrow().terminal());
        JsonNode before = api.get("/v1/allocation/" + placed.id()).json();
        assertThat(Files.isDirectory(api.agent.dataDir().resolve("alloc").resolve(placed.id()))).isTrue();

        assertThat(api.call("PUT", "/v1/system/gc", null).status()).isEqualTo(200);
        Await.until("garbage collected", () -> api.agent.engine().allocation(placed.id()).orElseThrow()
                .destroyedAt() >= 0);

        JsonNode after = api.get("/v1/allocation/" + placed.id()).json();
        for (String task : List.of("main", "post")) {
            JsonNode b = before.path("TaskStates").path(task);
            JsonNode a = after.path("TaskStates").path(task);
            assertThat(a.path("State").asText()).isEqualTo("dead");
            assertThat(a.path("StartedAt")).isEqualTo(b.path("StartedAt"));
            List<JsonNode> events = new ArrayList<>();
            a.path("Events").forEach(events::add);
            List<JsonNode> earlier = new ArrayList<>();
            b.path("Events").forEach(earlier::add);
            assertThat(events.subList(0, earlier.size())).isEqualTo(earlier);
            JsonNode gc = events.get(events.size() - 1);
            assertThat(gc.path("Type").asText()).isEqualTo("Garbage Collected");
            assertThat(gc.path("Details").path("gc_trigger").asText()).isEqualTo("manual");
            assertThat(gc.path("Details").path("gc_kill_policy").asText()).isEqualTo("preserve_states");
        }
        assertThat(api.agent.dataDir().resolve("alloc").resolve(placed.id())).doesNotExist();
        assertThat(api.get("/v1/job/gcme/allocations").json()).hasSize(1);
        // the logs went with the directory: a clear 404, not an empty log that reads as "printed nothing"
        var logs = api.get("/v1/client/fs/logs/" + placed.id() + "?task=main&type=stdout&plain=true");
        assertThat(logs.status()).isEqualTo(404);
        assertThat(logs.body()).contains("removed by garbage collection");
    }

    @Test
    void aPurgedRecordLeavesItsJobAndAJobWithNoneLeftIsForgotten() {
        AllocationState placed = api.agent.jobs().register(MockJobs.batch("purgeme", 1,
                MockJobs.task("main", "run_for", "10ms"))).placed().get(0);

        api.agent.jobs().forget(placed.id());

        assertThat(api.agent.jobs().job("purgeme")).isEmpty();
        assertThat(api.agent.jobs().allocIdsWithPrefix(placed.id(), 5)).isEmpty();
    }
}
