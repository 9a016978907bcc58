package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower whose client stops reading without disconnecting is closed once a write has been blocked for the
 * stall limit, and its slot is freed. A real JDK HTTP server on loopback, real log files, a raw socket that never
 * reads.
 */
class LogFollowersStallTest {
    @TempDir
    Path tmp;

    /** Polls {@code condition} every millisecond for up to 20 s. */
    private static void until(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /** A JDK HTTP server on loopback whose every request follows {@code logs}' web.stdout through {@code followers}. */
    private static HttpServer serve(LogFollowers followers, Path logs) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            assertThat(followers.reserve()).isTrue();
            LogCursor cursor = new LogCursor(logs, "web", "stdout");
            cursor.seek(false, 0);
            exchange.getResponseHeaders().set("Content-Type", LogStream.contentType(true));
            exchange.sendResponseHeaders(200, 0);
            followers.follow(exchange, new LogStream(cursor, exchange.getResponseBody(), true), () -> false, "web");
        });
        server.start();
        return server;
    }

    /** A client with a small receive window that sends a request and never reads. */
    private static Socket stalledClient(HttpServer server) throws java.io.IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()));
        s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        return s;
    }

    private Path bigLog() throws java.io.IOException {
        Path logs = Files.createDirectories(tmp.resolve("alloc1").resolve("alloc").resolve("logs"));
        Files.write(logs.resolve("web.stdout.0"), new byte[16 << 20]); // far more than the socket buffers take
        return logs;
    }

    @Test
    void aFollowerStuckPastTheStallLimitIsClosedAndItsSlotFreed() throws Exception {
        Path logs = bigLog();
        LogFollowers followers = new LogFollowers(Duration.ofMillis(500));
        HttpServer server = serve(followers, logs);
        try (Socket s = stalledClient(server)) {
            until("the follow", () -> followers.count() == 1);
            until("the stalled follow closed", () -> followers.count() == 0);
            // its slot is back: all 64 can be taken again
            for (int i = 0; i < LogFollowers.MAX_FOLLOWERS; i++) {
                assertThat(followers.reserve()).as("slot " + i).isTrue();
            }
            // and the connection is closed: reading on drains what was buffered, then ends
            s.setSoTimeout(10_000);
            InputStream in = s.getInputStream();
            byte[] buf = new byte[64 * 1024];
            long got = 0;
            try {
                for (int n; (n = in.read(buf)) >= 0; ) {
                    got += n;
                }
            } catch (java.net.SocketException e) {
                // reset: closed as well
            }
            assertThat(got).isLessThan(16 << 20);
        } finally {
            followers.close();
            server.stop(0);
        }
    }

    @Test
    void closingWithAStalledFollowerReturnsPromptly() throws Exception {
        Path logs = bigLog();
        LogFollowers followers = new LogFollowers(Duration.ofSeconds(30));
        HttpServer server = serve(followers, logs);
        try (Socket s = stalledClient(server)) {
            until("the follow", () -> followers.count() == 1);
            long start = System.nanoTime();
            followers.close(); // the follow's last write would block on the full socket
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            until("the follow ended", () -> followers.count() == 0);
        } finally {
            server.stop(0);
        }
    }
}
