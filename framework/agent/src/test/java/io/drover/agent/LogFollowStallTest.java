package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, finding 14: two log followers that never read (raw sockets with a small receive buffer, never read,
 * so the kernel buffers fill and the agent's writes block) must not slow a third that reads. Before, the
 * followers shared two tick threads and the stalled two held both: the reader got 32 KiB/s instead of 1,193.
 */
class LogFollowStallTest extends RunningAgentTest {
    private static final int LOG_BYTES = 24 << 20; // well past what two stalled sockets' buffers absorb
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Test
    void twoStalledFollowersDoNotSlowAThirdThatReads() throws Exception {
        String id = api.agent.jobs().register(batch("quiet", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        Path log = api.agent.dataDir().resolve("alloc").resolve(id).resolve("alloc").resolve("logs")
                .resolve("web.stdout.0");
        byte[] chunk = "0123456789abcdef".repeat(4096).getBytes(StandardCharsets.US_ASCII); // 64 KiB
        try (OutputStream out = Files.newOutputStream(log, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            for (int i = 0; i < LOG_BYTES / chunk.length; i++) {
                out.write(chunk); // what a chatty task printed
            }
        }
        String request = "GET /v1/client/fs/logs/" + id + "?task=web&type=stdout&follow=true&plain=true HTTP/1.1\r\n"
                + "Host: 127.0.0.1\r\n\r\n";
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket s = new Socket();
                s.setReceiveBufferSize(4096); // before connect: a small window
                s.connect(new InetSocketAddress("127.0.0.1", api.agent.httpPort()));
                s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
                stalled.add(s); // never read
            }
            Await.until("2 follows", () -> api.agent.activeLogFollows() == 2);

            long start = System.nanoTime();
            long received = 0;
            try (Socket reader = new Socket("127.0.0.1", api.agent.httpPort())) {
                reader.setSoTimeout((int) DEADLINE.toMillis());
                reader.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                reader.getOutputStream().flush();
                InputStream in = reader.getInputStream();
                byte[] buf = new byte[64 * 1024];
                // the body is chunked: its size lines add a little to the log's bytes, never take away
                try {
                    while (received < LOG_BYTES && System.nanoTime() - start < DEADLINE.toNanos()) {
                        int n = in.read(buf);
                        if (n < 0) {
                            break;
                        }
                        received += n;
                    }
                } catch (java.net.SocketTimeoutException e) {
                    // nothing came for the whole deadline: the assertion below says how little arrived
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(received).as("bytes the reading follower got in %.1f s", seconds).isGreaterThanOrEqualTo(LOG_BYTES);
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
            api.agent.engine().stop(id);
            api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        }
    }
}
