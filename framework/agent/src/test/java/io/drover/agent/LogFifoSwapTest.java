package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A task swaps the log file a follower is reading for a FIFO (the log folder is the group's): the follower's next
 * open must not block on it (before, it blocked until someone wrote to the FIFO, holding the follow); it skips the
 * name and goes on with the next file.
 */
class LogFifoSwapTest extends RunningAgentTest {
    @Test
    void aLogFileSwappedForAFifoDoesNotBlockItsFollower() throws Exception {
        String id = api.agent.jobs().register(batch("quiet", 1, task("web", "run_for", "1h"))).placed().get(0).id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        Path logs = api.agent.dataDir().resolve("alloc").resolve(id).resolve("alloc").resolve("logs");
        Files.writeString(logs.resolve("web.stdout.0"), "before\n");
        try (Socket s = new Socket("127.0.0.1", api.agent.httpPort())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("GET /v1/client/fs/logs/" + id + "?task=web&follow=true&plain=true HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            StringBuilder got = new StringBuilder();
            readUntil(in, got, "before\n");

            Path fifo = tmp.resolve("fifo");
            assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
            Files.move(fifo, logs.resolve("web.stdout.0"), StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(logs.resolve("web.stdout.1"), "after\n");
            readUntil(in, got, "after\n");
        } finally {
            api.agent.engine().stop(id);
            api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        }
    }

    private static void readUntil(InputStream in, StringBuilder got, String text) throws Exception {
        byte[] buf = new byte[4096];
        while (!got.toString().contains(text)) {
            int n = in.read(buf); // a SocketTimeoutException after 20 s: the follower is stuck
            assertThat(n).as("stream ended before " + text.trim() + "; got " + got).isPositive();
            got.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        }
    }
}
