package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code GET /v1/event/stream} on a real agent: frames, topic filters, bounds and a reader that stops reading. */
class EventStreamTest {
    @TempDir
    Path tmp;
    TestAgent api;
    final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        api = TestAgent.start(tmp);
    }

    @AfterEach
    void stop() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        api.close();
    }

    /** A stream read line by line on a thread of the test; frames kept in arrival order. */
    final class Stream implements AutoCloseable {
        final List<JsonNode> frames = new CopyOnWriteArrayList<>();
        final InputStream body;
        final Thread reader;

        Stream(String query) throws Exception {
            HttpResponse<InputStream> r = api.client.send(api.request("/v1/event/stream" + query).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
            body = r.body();
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        frames.add(TestAgent.JSON.readTree(line));
                    }
                } catch (Exception e) {
                    // closed by the test
                }
            }, "test-stream-reader");
            reader.start();
            open.add(this);
        }

        List<JsonNode> events() {
            List<JsonNode> out = new ArrayList<>();
            for (JsonNode f : frames) {
                f.path("Events").forEach(out::add);
            }
            return out;
        }

        boolean has(String topic, String key, java.util.function.Predicate<JsonNode> payload) {
            return events().stream().anyMatch(e -> e.path("Topic").asText().equals(topic)
                    && e.path("Key").asText().equals(key) && payload.test(e.path("Payload")));
        }

        @Override
        public void close() throws Exception {
            body.close();
            reader.join(5000);
        }
    }

    @Test
    void everyDurableAllocationChangeIsAnAllocationEventAndARegistrationAJobEvent() throws Exception {
        Stream s = new Stream("");
        Await.until("the first heartbeat", () -> !s.frames.isEmpty());
        assertThat(s.frames.get(0).size()).as("a {} heartbeat first").isZero();
        String id = api.agent.jobs().register(batch("ev", 1, task("web", "run_for", "50ms"))).placed().get(0).id();
        Await.until("the allocation's completion as an event", () -> s.has("Allocation", id,
                p -> p.path("Allocation").path("ClientStatus").asText().equals("complete")));
        assertThat(s.has("Job", "ev", p -> p.path("Job").path("ID").asText().equals("ev"))).isTrue();
        List<JsonNode> events = s.events();
        JsonNode first = events.get(0);
        assertThat(first.path("Type").asText()).isIn("AllocationUpdated", "JobRegistered");
        assertThat(first.path("Namespace").asText()).isEqualTo("default");
        long last = 0;
        for (JsonNode f : s.frames) {
            if (f.has("Index")) {
                assertThat(f.path("Index").asLong()).as("indexes rise").isGreaterThan(last);
                assertThat(f.path("Events").get(0).path("Index").asLong()).isEqualTo(f.path("Index").asLong());
                last = f.path("Index").asLong();
            }
        }
        JsonNode done = events.stream().filter(e -> e.path("Payload").path("Allocation").path("ClientStatus").asText()
                .equals("complete")).findFirst().orElseThrow();
        assertThat(done.path("Payload").path("Allocation").path("TaskStates").path("web").path("Events").size())
                .as("the whole allocation, events and all").isGreaterThanOrEqualTo(4);

        api.call("DELETE", "/v1/job/ev", null);
        Await.until("the stop as a Job event", () -> s.has("Job", "ev",
                p -> p.path("Job").path("Stop").asBoolean()));
        assertThat(s.events().stream().filter(e -> e.path("Type").asText().equals("JobDeregistered")).count())
                .isEqualTo(1);
    }

    @Test
    void aRegistrationWhoseAllocationEndsBeforeTheRegistryHoldsItIsStillAJobEvent() throws Exception {
        // the order a loaded machine produced (flaky before): the allocation runs, ends and publishes its last update
        // while the registering thread is still between the placement and holding the job
        java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);
        api.agent.engine().addListener(state -> { // after the broker's: it has seen the update when this runs
            if (state.jobId().equals("early") && state.clientStatus().terminal()) {
                ended.countDown();
            }
        });
        api.agent.jobs().placedHook(placed -> {
            try {
                assertThat(ended.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("the allocation ended").isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        });
        Stream s = new Stream("?topic=Job");
        Await.until("the first heartbeat", () -> !s.frames.isEmpty());
        api.agent.jobs().register(batch("early", 1, task("web", "run_for", "0s")));
        api.agent.jobs().placedHook(placed -> {});
        Await.until("the registration as a Job event", () -> s.has("Job", "early",
                p -> p.path("Job").path("ID").asText().equals("early")));
        assertThat(s.events()).extracting(e -> e.path("Type").asText()).containsExactly("JobRegistered");
    }

    @Test
    void aTopicFilterKeepsOnlyItsEvents() throws Exception {
        Stream jobs = new Stream("?topic=Job");
        String first = api.agent.jobs().register(batch("a", 1, task("web", "run_for", "10ms"))).placed().get(0).id();
        Stream mine = new Stream("?topic=Allocation:" + first + "&topic=Job:b");
        Await.until("the first job's end", () -> api.alloc(first).terminal());
        String second = api.agent.jobs().register(batch("b", 1, task("web", "run_for", "10ms"))).placed().get(0).id();
        Await.until("the second job's registration on the Job stream", () -> jobs.has("Job", "b", p -> true));
        Await.until("job b on the keyed stream", () -> mine.has("Job", "b", p -> true));
        Await.until("the second job's end", () -> api.alloc(second).terminal());
        // the allocations changed between the two registrations: none of their events reached the Job stream
        assertThat(jobs.events()).allSatisfy(e -> assertThat(e.path("Topic").asText()).isEqualTo("Job"));
        assertThat(jobs.events()).extracting(e -> e.path("Key").asText()).contains("a", "b");
        assertThat(mine.events()).allSatisfy(e -> assertThat(e.path("Key").asText()).isIn(first, "b"));
        assertThat(mine.events().stream().noneMatch(e -> e.path("Key").asText().equals(second))).isTrue();
    }

    @Test
    void aBadTopicIsOne400NamingEveryBadOne() throws Exception {
        TestAgent.Resp r = api.get("/v1/event/stream?topic=Allocation&topic=Nodes&topic=Job:&topic=Evals:*");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.error()).contains("\"Nodes\"", "\"Job:\"", "\"Evals:*\"", "Allocation, Job, *")
                .doesNotContain("\"Allocation\"");
        assertThat(api.agent.activeEventStreams()).isZero();
    }

    @Test
    void aReaderThatStopsReadingIsDroppedWhileTheEngineAndOtherStreamsGoOn() throws Exception {
        Stream reading = new Stream("?topic=Allocation");
        Socket stalled = new Socket();
        stalled.setReceiveBufferSize(4096);
        stalled.connect(new java.net.InetSocketAddress("127.0.0.1", api.agent.httpPort()), 5000);
        open.add(stalled);
        OutputStream out = stalled.getOutputStream();
        out.write(("GET /v1/event/stream?topic=Allocation HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Await.until("both streams open", () -> api.agent.activeEventStreams() == 2);
        // never read: several MiB of allocation events (each the whole allocation) pile up for it
        List<String> ids = new ArrayList<>();
        for (int j = 0; j < 40 && api.agent.activeEventStreams() == 2; j++) {
            var reg = api.agent.jobs().register(batch("many-" + j, 100, task("web", "run_for", "1ms")));
            reg.placed().forEach(a -> ids.add(a.id()));
            for (var a : reg.placed()) {
                Await.until("allocation " + a.id() + " ends", Duration.ofSeconds(60), () -> api.alloc(a.id()).terminal());
            }
        }
        Await.until("the stalled reader dropped", Duration.ofSeconds(30), () -> api.agent.activeEventStreams() == 1);
        String lastId = ids.get(ids.size() - 1);
        Await.until("the reading stream saw the last allocation end", Duration.ofSeconds(30),
                () -> reading.has("Allocation", lastId, p -> p.path("Allocation").path("ClientStatus").asText()
                        .equals("complete")));
        assertThat(api.get("/v1/jobs").status()).as("the agent still answers").isEqualTo(200);
    }

    @Test
    void streamsAreBoundedAndClosingOneFreesItsPlace() throws Exception {
        List<Stream> streams = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            streams.add(new Stream("?topic=Job"));
        }
        Await.until("64 streams", () -> api.agent.activeEventStreams() == 64);
        TestAgent.Resp over = api.get("/v1/event/stream");
        assertThat(over.status()).isEqualTo(429);
        assertThat(over.error()).contains("too many event streams (64)");
        streams.get(0).close();
        // the agent notices the closed connection when a write to it fails: registrations' Job events are writes
        int[] n = {0};
        Await.until("the closed stream's place freed", () -> {
            api.agent.jobs().register(batch("wake-" + n[0]++, 1, task("web", "run_for", "1ms")));
            return api.agent.activeEventStreams() == 63;
        });
        HttpResponse<InputStream> again = api.client.send(api.request("/v1/event/stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(again.statusCode()).isEqualTo(200);
        again.body().close();
    }
}
