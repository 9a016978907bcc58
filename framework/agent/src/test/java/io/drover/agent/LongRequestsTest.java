package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.ClientConfig;
import io.drover.core.config.HttpConfig;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code header_timeout} bounds how long a client takes to SEND its request, not how long the agent takes to
 * answer it: an event stream, a log follow or a blocking query that outlives it keeps its connection (session 10 found both cut
 * with "request not sent within the header timeout"), while a client that never finishes its headers, or
 * announces a body it never sends, is still cut. A real agent with a 1 s header timeout (the sweep runs every
 * second, so a cut comes within 2 s); the idle timeout stays 30 s, so a close within 10 s is the header timeout's.
 */
class LongRequestsTest {
    static final HttpConfig HTTP = new HttpConfig(List.of(), 1024, Duration.ofSeconds(1), Duration.ofSeconds(30));

    @TempDir
    Path tmp;
    TestAgent api;

    @BeforeEach
    void start() throws Exception {
        api = TestAgent.start(tmp, null, null, ClientConfig.defaults(), HTTP);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", api.agent.httpPort()), 5000);
        s.setSoTimeout(10_000);
        return s;
    }

    private long index(String path) throws Exception {
        HttpResponse<String> r = api.client.send(api.request(path).GET().build(), HttpResponse.BodyHandlers.ofString());
        return Long.parseLong(r.headers().firstValue("X-Nomad-Index").orElseThrow());
    }

    /** A blocking query that waits 3 s, on a plain socket: its whole answer, or what came before the close. */
    private String blockFor3s(String path) throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write(("GET " + path + "?index=" + index(path) + "&wait=3s HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aBlockingQueryLongerThanTheHeaderTimeoutIsAnswered() throws Exception {
        String answer = blockFor3s("/v1/jobs");
        assertThat(answer).as("answered after its wait, not cut").startsWith("HTTP/1.1 200");
    }

    @Test
    void anEventStreamOutlivesTheHeaderTimeout() throws Exception {
        HttpResponse<InputStream> r = api.client.send(api.request("/v1/event/stream?topic=Job").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.statusCode()).isEqualTo(200);
        List<String> lines = new CopyOnWriteArrayList<>();
        AtomicBoolean ended = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // cut: counted below
            }
            ended.set(true);
        }, "test-stream-reader");
        reader.start();
        try {
            Await.until("the first heartbeat", () -> !lines.isEmpty());
            // the clock of this test: a query that returns after 3 s, three sweeps past the header timeout
            assertThat(blockFor3s("/v1/allocations")).startsWith("HTTP/1.1 200");
            assertThat(ended).as("the stream is still open").isFalse();
            api.agent.jobs().register(batch("late", 1, task("web", "run_for", "1h")));
            Await.until("the registration, read after the header timeout",
                    () -> lines.stream().anyMatch(l -> l.contains("\"late\"")));
        } finally {
            r.body().close();
            reader.join(5000);
        }
        api.call("DELETE", "/v1/job/late?purge=true", null);
    }

    @Test
    void aLogFollowOutlivesTheHeaderTimeout() throws Exception {
        String id = api.agent.jobs().register(batch("chatty", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        Path log = api.agent.dataDir().resolve("alloc").resolve(id).resolve("alloc").resolve("logs")
                .resolve("web.stdout.0");
        try (Socket s = connect()) {
            s.getOutputStream().write(("GET /v1/client/fs/logs/" + id + "?task=web&type=stdout&follow=true&plain=true"
                    + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            Files.writeString(log, "before\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            StringBuilder got = new StringBuilder();
            readUntil(in, got, "before");
            // the clock of this test: a query that returns after 3 s, three sweeps past the header timeout
            assertThat(blockFor3s("/v1/allocations")).startsWith("HTTP/1.1 200");
            Files.writeString(log, "after\n", StandardOpenOption.APPEND);
            readUntil(in, got, "after");
            assertThat(got.toString()).as("the follow still open and delivering").contains("after");
        } finally {
            api.agent.engine().stop(id);
            api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        }
    }

    /** Reads until {@code text} arrived; a close or 10 s of silence fails the test with what came. */
    private static void readUntil(InputStream in, StringBuilder got, String text) throws IOException {
        byte[] buf = new byte[8192];
        while (!got.toString().contains(text)) {
            int n = in.read(buf);
            assertThat(n).as("the connection closed before \"%s\" came: %s", text, got).isPositive();
            got.append(new String(buf, 0, n, StandardCharsets.UTF_8));
        }
    }

    @Test
    void headersThatNeverEndAreStillCut() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET /v1/jobs HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
            assertThat(closedByServer(s.getInputStream())).as("closed within 10 s").isTrue();
        }
    }

    @Test
    void aBodyThatNeverComesIsStillCut() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write(("PUT /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{").getBytes(StandardCharsets.US_ASCII));
            assertThat(closedByServer(s.getInputStream())).as("closed within 10 s").isTrue();
        }
    }

    @Test
    void aSecondRequestThatNeverEndsItsHeadersIsCutAfterAFirstOneWasServed() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET /v1/status/leader HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            String first = new String(buf, 0, in.read(buf), StandardCharsets.US_ASCII);
            assertThat(first).startsWith("HTTP/1.1 200");
            s.getOutputStream().write("GET /v1/jobs HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
            assertThat(closedByServer(in)).as("the kept-alive connection closed within 10 s").isTrue();
        }
    }

    private static boolean closedByServer(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // an error response may come first; only the close counts
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }
}
