package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.HttpConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@code http { max_conns_per_client }} (issue 12, finding 6): past the cap, a new connection from the same IP
 * address is closed at once, before it sends a byte, while the connections it has keep being served; once some
 * close, new ones are served again. The test client is 127.0.0.1, like every connection here.
 */
class ConnsPerClientTest {
    static final int CAP = 8;

    @Test
    void connectionsPastTheCapAreClosedAtOnceAndServedAgainOnceSomeClose() throws Exception {
        Router router = new Router().add("GET", "/v1/agent/health", r -> r.respond(200, Map.of("ok", true)));
        HttpConfig http = HttpConfig.defaults().withMaxConnsPerClient(CAP);
        List<Socket> held = new ArrayList<>();
        try (ApiServer api = ApiServer.start("127.0.0.1", 0, router, null, http, Optional::empty)) {
            for (int i = 0; i < CAP; i++) {
                held.add(connect(api.port())); // idle, never a byte
            }
            // the first 8 are open: a request on one of them is answered
            assertThat(request(held.get(0))).startsWith("HTTP/1.1 200");
            for (int extra = 0; extra < 3; extra++) {
                try (Socket ninth = connect(api.port())) {
                    long t0 = System.nanoTime();
                    assertThat(closedByServer(ninth)).as("connection " + (CAP + 1 + extra)).isTrue();
                    assertThat((System.nanoTime() - t0) / 1_000_000).as("closed at once (ms)").isLessThan(2000);
                }
            }
            // the held ones are untouched by the refusals
            assertThat(request(held.get(CAP - 1))).startsWith("HTTP/1.1 200");
            // closing two frees two places: new connections are served again
            held.remove(0).close();
            held.remove(0).close();
            long deadline = System.nanoTime() + 5_000_000_000L;
            String answer = null;
            while (answer == null) {
                try (Socket s = connect(api.port())) {
                    answer = request(s);
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) { // the server sees the closes a moment later
                        throw e;
                    }
                    Thread.sleep(20);
                }
            }
            assertThat(answer).startsWith("HTTP/1.1 200");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    @Test
    void zeroMeansNoPerClientLimit() throws Exception {
        Router router = new Router().add("GET", "/v1/agent/health", r -> r.respond(200, Map.of("ok", true)));
        List<Socket> held = new ArrayList<>();
        try (ApiServer api = ApiServer.start("127.0.0.1", 0, router, null,
                HttpConfig.defaults().withMaxConnsPerClient(0), Optional::empty)) {
            for (int i = 0; i < HttpConfig.DEFAULT_MAX_CONNS_PER_CLIENT + 10; i++) {
                held.add(connect(api.port()));
            }
            try (Socket s = connect(api.port())) {
                assertThat(request(s)).startsWith("HTTP/1.1 200");
            }
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }

    private static Socket connect(int port) throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(5000);
        return s;
    }

    /** One keep-alive request; the status line and headers of its answer. */
    private static String request(Socket s) throws IOException {
        s.getOutputStream().write("GET /v1/agent/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            head.append((char) c);
            if (head.toString().endsWith("\r\n\r\n")) {
                return head.toString();
            }
        }
        throw new IOException("closed by the server after " + head.length() + " bytes");
    }

    /** True when the server closes the connection (EOF or reset) without answering, within the read timeout. */
    private static boolean closedByServer(Socket s) throws IOException {
        try {
            return s.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }
}
