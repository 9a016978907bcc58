package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 6: 17 connections that send their headers slowly held all 16 handler threads, and 515 idle
 * connections filled the 512 the server accepted, so the API stopped answering, token or not. Replayed on a real
 * agent with a token: while the attackers' connections are open, a client with the token is answered at once.
 */
class SlowClientsTest {
    static final String TOKEN = "slow-clients-token-0123456789";
    /** "At once": far below the header and idle timeouts that would free the server by themselves. */
    static final Duration PROMPT = Duration.ofSeconds(2);

    @TempDir
    Path tmp;
    TestAgent api;
    final List<Socket> attackers = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        // the attackers and the client with the token are all 127.0.0.1 here: without the per-client cap (which
        // would close the attackers' 101st connection, and the client's too; see ConnsPerClientTest) this shows
        // that the other limits alone keep the API answering
        api = TestAgent.start(tmp, TOKEN, null, io.drover.core.config.ClientConfig.defaults(),
                io.drover.core.config.HttpConfig.defaults().withMaxConnsPerClient(0));
    }

    @AfterEach
    void stop() throws IOException {
        for (Socket s : attackers) {
            s.close();
        }
        api.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", api.agent.httpPort()), 5000);
        attackers.add(s);
        return s;
    }

    /** A request with the token on a new connection, timed; fails the test when it takes longer than PROMPT. */
    private void assertAnsweredPromptly() throws Exception {
        long t0 = System.nanoTime();
        RawHttp.Resp r = RawHttp.send(api.agent.httpPort(), "GET", "/v1/agent/health", null,
                "Host: 127.0.0.1", "X-Nomad-Token: " + TOKEN);
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(r.status()).isEqualTo(200);
        assertThat(took).as("a client with the token while the attack goes on").isLessThan(PROMPT);
    }

    @Test
    void seventeenSlowHeaderConnectionsDoNotHoldTheServer() throws Exception {
        for (int i = 0; i < 17; i++) { // a request line and part of a header, then nothing more: a slow sender
            Socket s = connect();
            s.getOutputStream().write("GET /v1/jobs HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        // the 16 threads the server always had are reading the first 16 (the 17th waited for one of them)
        Await.until("the server reads the slow connections", () -> threads("drover-http-") >= 16);
        assertAnsweredPromptly();
        // and a slow sender does not keep its connection: closed once header_timeout (10 s) is over
        Socket first = attackers.get(0);
        first.setSoTimeout(25_000);
        assertThat(readToEnd(first.getInputStream())).as("closed by the server").isTrue();
        assertAnsweredPromptly();
    }

    @Test
    void fiveHundredFifteenIdleConnectionsDoNotHoldTheServer() throws Exception {
        for (int i = 0; i < 515; i++) {
            connect(); // connected, never a byte
        }
        assertAnsweredPromptly();
    }

    private static boolean readToEnd(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // the server may send an error first; only its closing counts
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset: closed as well
        }
    }

    private static long threads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }
}
