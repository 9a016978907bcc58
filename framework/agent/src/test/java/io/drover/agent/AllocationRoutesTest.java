package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AllocationRoutesTest {
    @TempDir
    Path tmp;
    TestAgent api;
    final AtomicInteger ids = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        // ids "aaaa0001-…", "aaaa0002-…": a shared prefix, and unique longer ones
        api = TestAgent.start(tmp, null, () -> String.format("aaaa%04d-0000-4000-8000-000000000000",
                ids.incrementAndGet()));
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void readsAnAllocationByIdAndByUniquePrefixInNomadsShape() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "20ms"))).placed().get(0).id();
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);

        JsonNode full = api.get("/v1/allocation/" + id).json();
        assertThat(full.path("ID").asText()).isEqualTo(id);
        assertThat(full.path("JobID").asText()).isEqualTo("j");
        assertThat(full.path("TaskGroup").asText()).isEqualTo("g");
        assertThat(full.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(full.path("DesiredStatus").asText()).isEqualTo("run");
        JsonNode web = full.path("TaskStates").path("web");
        assertThat(web.path("State").asText()).isEqualTo("dead");
        assertThat(web.path("Failed").asBoolean()).isFalse();
        assertThat(web.path("StartedAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
        assertThat(web.path("Events").findValuesAsText("Type")).contains("Received", "Started", "Terminated");

        assertThat(api.get("/v1/allocation/aaaa0001").json().path("ID").asText()).isEqualTo(id);
    }

    @Test
    void theAllocationsJobIsTheJobRouteOfItsVersion_writtenStraightFromTheMap() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "20ms"))).placed().get(0).id();
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        // the allocation's Job is serialised from JobJson's map (a POJO node), the job route's through its own path
        JsonNode job = api.get("/v1/job/j").json();
        JsonNode inAlloc = api.get("/v1/allocation/" + id).json().path("Job");
        assertThat(inAlloc.path("TaskGroups").get(0).path("Tasks").get(0).path("Name").asText()).isEqualTo("web");
        assertThat(inAlloc).isEqualTo(job);
    }

    @Test
    void aReadAfterAChangeShowsTheNewSnapshotNotACachedOne() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        // settled first: the task starts a store round trip after its Task Setup (the intent before the run)
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        String first = api.get("/v1/allocation/" + id).body();
        assertThat(api.get("/v1/allocation/" + id).body()).isEqualTo(first); // unchanged: same bytes
        api.agent.engine().stop(id);
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        JsonNode after = api.get("/v1/allocation/" + id).json();
        assertThat(after.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(after.path("DesiredStatus").asText()).isEqualTo("stop");
        assertThat(after.path("TaskStates").path("web").path("Events").findValuesAsText("Type"))
                .contains("Killing", "Killed");
    }

    @Test
    void ambiguousPrefixIs400ListingTheMatchesAndUnknownIs404() throws Exception {
        List<String> placed = api.agent.jobs().register(batch("j", 2, task("web", "run_for", "1h"))).placed()
                .stream().map(a -> a.id()).toList();
        TestAgent.Resp amb = api.get("/v1/allocation/aaaa");
        assertThat(amb.status()).isEqualTo(400);
        assertThat(amb.error()).contains("ambiguous").contains(placed.get(0)).contains(placed.get(1));

        TestAgent.Resp unknown = api.get("/v1/allocation/ffff");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.error()).contains("ffff");
        assertThat(api.call("POST", "/v1/allocation/ffff/stop", "").status()).isEqualTo(404);
    }

    @Test
    void listsEveryAllocationAndFiltersByPrefix() throws Exception {
        var a = api.agent.jobs().register(batch("a", 2, task("web", "run_for", "1h")));
        var b = api.agent.jobs().register(batch("b", 1, task("web", "run_for", "1h")));
        // listed once on disk, when PUT /v1/jobs would answer
        api.agent.jobs().recorded(a).get(20, TimeUnit.SECONDS);
        api.agent.jobs().recorded(b).get(20, TimeUnit.SECONDS);
        assertThat(api.get("/v1/allocations").json()).hasSize(3);
        assertThat(api.get("/v1/allocations?prefix=aaaa0003").json().findValuesAsText("JobID"))
                .containsExactly("b");
    }

    @Test
    void stopKillsTheAllocationOverTheApi() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        for (String method : new String[] {"POST", "PUT"}) {
            TestAgent.Resp r = api.call(method, "/v1/allocation/" + id.substring(0, 8) + "/stop", "");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json().has("EvalID")).isTrue();
        }
        var end = api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        assertThat(end.taskStates().get("web").events().stream().map(TaskEvent::type))
                .contains(TaskEventType.KILLING);
        assertThat(api.get("/v1/allocation/" + id).json().path("DesiredStatus").asText()).isEqualTo("stop");
    }

    @Test
    void signalReachesTheTaskAsNomadsSignalingEvent() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));

        TestAgent.Resp r = api.call("POST", "/v1/client/allocation/" + id + "/signal",
                "{\"Signal\": \"SIGUSR1\", \"Task\": \"web\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        Await.until("Signaling event", () -> api.alloc(id).taskStates().get("web").events().stream()
                .anyMatch(e -> e.type() == TaskEventType.SIGNALING));

        assertThat(api.call("PUT", "/v1/client/allocation/" + id + "/signal", "{\"Signal\": \"SIGNOPE\"}")
                .status()).isEqualTo(400);
        assertThat(api.call("PUT", "/v1/client/allocation/" + id + "/signal",
                "{\"Signal\": \"SIGUSR1\", \"Task\": \"db\"}").error()).contains("no task db");
        assertThat(api.call("PUT", "/v1/client/allocation/" + id + "/signal", "not json").status())
                .isEqualTo(400);
        assertThat(api.alloc(id).clientStatus().wireName()).isEqualTo("running");
    }

    /** Issue 13 item 7: a signal to a task that is not running is a 409 with one line (the CLI exits 1). */
    @Test
    void aSignalToATaskThatIsNotRunningIsAConflict() throws Exception {
        String id = api.agent.jobs().register(batch("j", 1, task("web", "run_for", "1h"), task("done", "run_for", "0s")))
                .placed().get(0).id();
        Await.until("web running, done dead", () -> api.alloc(id).taskStates().get("web").state().wireName()
                .equals("running") && api.alloc(id).taskStates().get("done").state().wireName().equals("dead"));

        TestAgent.Resp r = api.call("POST", "/v1/client/allocation/" + id + "/signal",
                "{\"Signal\": \"SIGUSR1\", \"Task\": \"done\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(409);
        assertThat(r.error()).isEqualTo("task done of allocation " + id + " is dead, not running: nothing to signal");

        api.call("POST", "/v1/allocation/" + id + "/stop", "");
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        TestAgent.Resp after = api.call("POST", "/v1/client/allocation/" + id + "/signal", "{\"Signal\": \"SIGUSR1\"}");
        assertThat(after.status()).isEqualTo(409);
        assertThat(after.error()).startsWith("allocation " + id + " is ").endsWith(": no task to signal");
    }
}
