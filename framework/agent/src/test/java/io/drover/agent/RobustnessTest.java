package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.state.AllocationState;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Garbage and load: the agent keeps answering and keeps its state. */
class RobustnessTest extends RunningAgentTest {
    private void rawSend(byte[] bytes) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", api.agent.httpPort()), 5000);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(bytes);
                out.flush();
                s.shutdownOutput();
                InputStream in = s.getInputStream();
                byte[] buf = new byte[4096];
                while (in.read(buf) >= 0) {
                    // whatever the server says (or nothing): only its survival matters
                }
            } catch (java.io.IOException e) {
                // reset or timeout: the server may drop a garbage connection
            }
        }
    }

    private void assertStillServing(String jobId) throws Exception {
        assertThat(api.get("/v1/agent/health").status()).isEqualTo(200);
        assertThat(api.get("/v1/job/" + jobId).json().path("ID").asText()).isEqualTo(jobId);
    }

    @Test
    void randomBytesOnARawSocketLeaveTheServerAnsweringAndTheStateIntact() throws Exception {
        api.agent.jobs().register(batch("kept", 1, task("web", "run_for", "1h")));
        Random random = new Random(42);
        for (int i = 0; i < 20; i++) {
            byte[] garbage = new byte[1 + random.nextInt(64 * 1024)];
            random.nextBytes(garbage);
            rawSend(garbage);
        }
        rawSend("GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        rawSend("PUT /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"Job\"".getBytes(
                StandardCharsets.US_ASCII)); // body cut short, then half-close
        rawSend(("GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(1 << 20) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        StringBuilder many = new StringBuilder("GET /v1/jobs HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i < 5000; i++) {
            many.append("X-H").append(i).append(": v\r\n");
        }
        rawSend(many.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        rawSend("\u0000\u0000\u0000 /\u0000 HTTP/9.9\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
        assertStillServing("kept");
    }

    @Test
    void wrongContentTypesAre415AndBinaryBodiesAre400() throws Exception {
        byte[] binary = new byte[4096];
        new Random(7).nextBytes(binary);
        TestAgent.Resp r = api.send(api.request("/v1/jobs").header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(binary)).build());
        assertThat(r.status()).isEqualTo(415); // was 400 before the JSON content type was required (issue 12)
        TestAgent.Resp xml = api.send(api.request("/v1/jobs").header("Content-Type", "application/xml")
                .PUT(HttpRequest.BodyPublishers.ofString("<job/>")).build());
        assertThat(xml.status()).isEqualTo(415);
        assertThat(xml.json().has("error")).isTrue();
        TestAgent.Resp junk = api.send(api.request("/v1/jobs").header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(binary)).build());
        assertThat(junk.status()).isEqualTo(400);
        assertThat(junk.json().has("error")).isTrue();
    }

    @Test
    void fiftyClientsReadAllocationsWhileAllocationsChurn() throws Exception {
        List<String> ids = new ArrayList<>(api.agent.jobs().register(batch("steady", 10,
                task("web", "run_for", "1h"))).placed().stream().map(AllocationState::id).toList());
        AtomicBoolean churning = new AtomicBoolean(true);
        AtomicInteger churned = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(51);
        try {
            Future<?> churn = pool.submit(() -> {
                int n = 0;
                while (churning.get()) {
                    String job = "churn-" + (n++ % 5);
                    var placed = api.agent.jobs().register(batch(job, 4, task("web", "run_for", "5ms")));
                    placed.placed().stream().skip(2).forEach(a -> api.agent.engine().stop(a.id()));
                    for (AllocationState a : placed.placed()) { // paced by the allocations' own lives
                        api.agent.engine().terminal(a.id()).get(20, TimeUnit.SECONDS);
                    }
                    churned.addAndGet(placed.placed().size());
                }
                return null;
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < 50; c++) {
                clients.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 40; i++) {
                        List<AllocationState> all = api.agent.engine().allocations();
                        String id = ThreadLocalRandom.current().nextBoolean()
                                ? ids.get(ThreadLocalRandom.current().nextInt(ids.size()))
                                : all.get(ThreadLocalRandom.current().nextInt(all.size())).id();
                        String path = "/v1/allocation/" + (i % 2 == 0 ? id : id.substring(0, 13));
                        TestAgent.Resp r = api.get(path);
                        JsonNode json = r.status() == 200 ? r.json() : null;
                        if (json == null || !json.path("ID").asText().equals(id)
                                || json.path("TaskStates").path("web").path("State").asText().isEmpty()) {
                            failures.add(path + " -> " + r.status() + " " + r.body());
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : clients) {
                f.get(120, TimeUnit.SECONDS);
            }
            churning.set(false);
            churn.get(30, TimeUnit.SECONDS);
        } finally {
            churning.set(false);
            pool.shutdownNow();
        }
        assertThat(failures).isEmpty();
        assertThat(churned.get()).isPositive();
        for (String id : ids) {
            assertThat(api.get("/v1/allocation/" + id).json().path("ClientStatus").asText()).isEqualTo("running");
        }
        assertStillServing("steady");
    }

    @Test
    void aClientThatNeverFinishesItsRequestDoesNotBlockOthers() throws Exception {
        try (Socket slow = new Socket()) {
            slow.connect(new InetSocketAddress("127.0.0.1", api.agent.httpPort()), 5000);
            slow.getOutputStream().write("PUT /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"
                    .getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().flush();
            assertStillServing0();
            slow.setSoTimeout(100);
            try {
                slow.getInputStream().read();
            } catch (SocketTimeoutException e) {
                // still waiting for its body: fine
            }
        }
        assertStillServing0();
    }

    private void assertStillServing0() throws Exception {
        assertThat(api.get("/v1/agent/health").status()).isEqualTo(200);
    }
}
