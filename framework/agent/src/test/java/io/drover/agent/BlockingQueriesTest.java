package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Nomad's blocking queries and indexes against a real agent (issue 15). */
class BlockingQueriesTest extends RunningAgentTest {

    private long index(String path) throws Exception {
        HttpResponse<String> r = api.client.send(api.request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElseThrow());
    }

    private CompletableFuture<HttpResponse<String>> async(String path) {
        return api.client.sendAsync(api.request(path).timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBlockingQueryIsAnsweredWhenAChangePassesItsIndex() throws Exception {
        long before = index("/v1/jobs");
        assertThat(before).as("never 0, as Nomad's").isPositive();
        CompletableFuture<HttpResponse<String>> waiting = async("/v1/jobs?index=" + before + "&wait=50s");
        Await.until("the query parked", () -> api.agent.waitingQueries() == 1);
        assertThat(waiting).isNotDone();

        api.agent.jobs().register(batch("woken", 1, task("web", "run_for", "1h")));
        HttpResponse<String> r = waiting.get(20, TimeUnit.SECONDS);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(before);
        assertThat(r.body()).contains("\"ID\":\"woken\"");
        assertThat(api.agent.waitingQueries()).isZero();
    }

    @Test
    void aBlockingQueryEndsWithItsWaitAndAnIndexAlreadyPassedIsAnsweredAtOnce() throws Exception {
        long now = index("/v1/allocations");
        long t0 = System.nanoTime();
        HttpResponse<String> r = async("/v1/allocations?index=" + now + "&wait=300ms").get(20, TimeUnit.SECONDS);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(r.headers().firstValue("X-Nomad-Index")).hasValue(Long.toString(now));

        HttpResponse<String> old = async("/v1/allocations?index=" + (now - 1) + "&wait=50s").get(20, TimeUnit.SECONDS);
        assertThat(old.statusCode()).isEqualTo(200);
        HttpResponse<String> zero = async("/v1/allocations?index=0&wait=50s").get(20, TimeUnit.SECONDS);
        assertThat(zero.statusCode()).as("index=0 never blocks").isEqualTo(200);
    }

    @Test
    void everyReadCarriesNomadsQueryHeaders() throws Exception {
        for (String path : List.of("/v1/jobs", "/v1/allocations", "/v1/nodes", "/v1/agent/self", "/v1/regions",
                "/v1/status/leader", "/v1/evaluations", "/v1/plugins")) {
            HttpResponse<String> r = api.client.send(api.request(path).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
            assertThat(r.headers().firstValue("X-Nomad-KnownLeader")).as(path).hasValue("true");
            assertThat(r.headers().firstValue("X-Nomad-LastContact")).as(path).hasValue("0");
            assertThat(r.headers().firstValue("X-Nomad-Index")).as(path).isPresent();
        }
    }

    @Test
    void aBadIndexOrWaitIsOneClearLine() throws Exception {
        TestAgent.Resp bad = api.get("/v1/jobs?index=soon");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.error()).isEqualTo("query parameter index must be an unsigned integer, not \"soon\"");
        TestAgent.Resp wait = api.get("/v1/jobs?index=1&wait=forever");
        assertThat(wait.status()).isEqualTo(400);
        assertThat(wait.error()).startsWith("query parameter wait must be a duration");
    }

    @Test
    void parkedQueriesHoldNoServerThread() throws Exception {
        long now = index("/v1/jobs");
        List<CompletableFuture<HttpResponse<String>>> parked = new ArrayList<>();
        int n = 90; // under the 100 connections one client may open
        for (int i = 0; i < n; i++) {
            parked.add(async("/v1/jobs?index=" + now + "&wait=60s"));
        }
        Await.until(n + " queries parked", () -> api.agent.waitingQueries() == n);
        long serverThreads = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("drover-http")).count();
        assertThat(serverThreads).as("drover-http threads while %d queries wait", n).isLessThan(n / 2);

        api.agent.jobs().register(batch("wake-all", 1, task("web", "run_for", "1h")));
        for (CompletableFuture<HttpResponse<String>> f : parked) {
            assertThat(f.get(30, TimeUnit.SECONDS).body()).contains("wake-all");
        }
    }

    @Test
    void indexesNeverGoBackAcrossARestartAndRecordsKeepTheirs() throws Exception {
        String id = api.agent.jobs().register(batch("kept", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("allocation running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        long before = index("/v1/jobs");
        TestAgent.Resp job = api.get("/v1/job/kept");
        TestAgent.Resp alloc = api.get("/v1/allocation/" + id);
        long jobIndex = job.json().path("JobModifyIndex").asLong();
        assertThat(jobIndex).isPositive().isLessThanOrEqualTo(before);
        assertThat(alloc.json().path("ModifyIndex").asLong()).isLessThanOrEqualTo(before);
        api.close();
        api = null;
        api = TestAgent.start(tmp);
        assertThat(index("/v1/jobs")).isGreaterThan(before);
        assertThat(api.get("/v1/job/kept").json().path("JobModifyIndex").asLong()).isEqualTo(jobIndex);
        assertThat(api.get("/v1/allocation/" + id).json().path("CreateIndex"))
                .isEqualTo(alloc.json().path("CreateIndex"));
        assertThat(api.get("/v1/allocation/" + id).json().path("EvalID")).isEqualTo(alloc.json().path("EvalID"));
    }
}
