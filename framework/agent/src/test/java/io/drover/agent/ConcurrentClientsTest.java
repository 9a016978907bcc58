package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4: many clients at once against a real agent on a loopback port — each registers jobs over the API and
 * reads its allocations, the allocation lists and the task logs while the others do the same. No request fails,
 * every client sees its own job's allocation, the totals add up afterwards, and the agent still answers.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConcurrentClientsTest {
    private static final int CLIENTS = 16;
    private static final int JOBS_EACH = 8;

    @TempDir
    Path tmp;
    TestAgent api;

    @BeforeEach
    void start() throws Exception {
        // 128 allocations stay under gc_max_allocs: their logs are read back at the end (GC has its own tests)
        io.drover.core.config.ClientConfig d = io.drover.core.config.ClientConfig.defaults();
        api = TestAgent.start(tmp, null, null, new io.drover.core.config.ClientConfig(d.gcInterval(), 1_000,
                d.gcDiskUsageThreshold(), d.gcInodeUsageThreshold(), d.gcParallelDestroys(), d.gcKillPolicy(),
                d.maxKillTimeout(), d.recordRetention()));
    }

    @AfterEach
    void stop() {
        api.close();
    }

    @Test
    void manyClientsRegisterAndReadAtOnceWithoutAnErrorAndTheResultsAddUp() throws Exception {
        CyclicBarrier go = new CyclicBarrier(CLIENTS);
        List<String> problems = new CopyOnWriteArrayList<>();
        Map<String, String> allocToJob = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    go.await();
                    for (int j = 0; j < JOBS_EACH; j++) {
                        String jobId = "c" + client + "-j" + j;
                        TestAgent.Resp reg = api.call("PUT", "/v1/jobs", "{\"JobHCL\": " + TestAgent.JSON
                                .writeValueAsString(hcl(jobId)) + "}");
                        if (reg.status() != 200) {
                            problems.add(jobId + " register: " + reg.status() + " " + reg.body());
                            continue;
                        }
                        String allocId = reg.json().path("Allocations").get(0).asText();
                        allocToJob.put(allocId, jobId);
                        check(problems, api.get("/v1/allocation/" + allocId), r -> r.json().path("JobID").asText()
                                .equals(jobId), jobId + " read");
                        check(problems, api.get("/v1/job/" + jobId + "/allocations"), r -> r.json().size() == 1
                                && r.json().get(0).path("ID").asText().equals(allocId), jobId + " job allocations");
                        check(problems, api.get("/v1/client/fs/logs/" + allocId + "?task=out&type=stdout&plain=true"),
                                r -> true, jobId + " logs"); // may still be empty: read while the task runs
                        check(problems, api.get("/v1/allocations"), r -> r.json().isArray(), jobId + " list");
                        check(problems, api.get("/v1/jobs"), r -> r.json().isArray(), jobId + " jobs");
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(150, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(problems).isEmpty();
        assertThat(allocToJob).hasSize(CLIENTS * JOBS_EACH);

        for (String allocId : allocToJob.keySet()) {
            api.agent.engine().terminal(allocId).get(60, TimeUnit.SECONDS);
        }
        JsonNode all = api.get("/v1/allocations").json();
        assertThat(all).hasSize(CLIENTS * JOBS_EACH);
        Set<String> seen = ConcurrentHashMap.newKeySet();
        for (JsonNode a : all) {
            seen.add(a.path("ID").asText());
            assertThat(a.path("JobID").asText()).isEqualTo(allocToJob.get(a.path("ID").asText()));
            assertThat(a.path("ClientStatus").asText()).isEqualTo("complete");
        }
        assertThat(seen).isEqualTo(allocToJob.keySet());
        assertThat(api.get("/v1/jobs").json()).hasSize(CLIENTS * JOBS_EACH);
        for (Map.Entry<String, String> e : allocToJob.entrySet()) {
            TestAgent.Resp logs = api.get("/v1/client/fs/logs/" + e.getKey() + "?task=out&type=stdout&plain=true");
            assertThat(logs.status()).isEqualTo(200);
            assertThat(logs.body()).as("stdout of %s", e.getValue()).isEqualTo("hello from " + e.getValue() + "\n");
        }
        assertThat(api.get("/v1/agent/health").status()).isEqualTo(200);
        assertThat(api.agent.storeFailure()).isEmpty();
    }

    private static String hcl(String jobId) {
        return """
                job "%s" {
                  type = "batch"
                  group "g" {
                    task "out" {
                      driver = "mock"
                      config {
                        run_for       = "20ms"
                        stdout_string = "hello from %s\\n"
                      }
                    }
                  }
                }
                """.formatted(jobId, jobId);
    }

    private interface Check {
        boolean ok(TestAgent.Resp r) throws Exception;
    }

    private static void check(List<String> problems, TestAgent.Resp r, Check check, String what) throws Exception {
        if (r.status() != 200 || !check.ok(r)) {
            problems.add(what + ": " + r.status() + " " + r.body());
        }
    }
}
