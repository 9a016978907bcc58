package io.drover.cli.client.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The plain-socket HTTP/1.1 client against canned answers of a real loopback socket. */
class SocketHttpTransportTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private final SocketHttpTransport http = new SocketHttpTransport();

    private static String body(CannedServer server, String method, String path, String token, String body)
            throws IOException {
        try (HttpResponseStream r = new SocketHttpTransport().send(method, URI.create(server.address() + path), token,
                body, TIMEOUT)) {
            return r.status() + " " + r.text();
        }
    }

    @Test
    void sendsHostTokenAndJsonBodyAndReadsAContentLengthAnswer() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nContent-Length: 7\r\n"
                + "Content-Type: application/json\r\n\r\n{\"a\":1}this is past the length")) {
            assertThat(body(server, "PUT", "/v1/job/x%20y?task=a&b=c", "secret-token", "{\"k\":\"é\"}"))
                    .isEqualTo("200 {\"a\":1}");
            String port = server.address().substring(server.address().lastIndexOf(':') + 1);
            assertThat(server.request()).startsWith("PUT /v1/job/x%20y?task=a&b=c HTTP/1.1\r\n")
                    .contains("\r\nHost: 127.0.0.1:" + port + "\r\n", "\r\nX-Nomad-Token: secret-token\r\n",
                            "\r\nContent-Type: application/json\r\n", "\r\nContent-Length: 10\r\n",
                            "\r\nConnection: close\r\n")
                    .endsWith("\r\n\r\n{\"k\":\"é\"}");
        }
    }

    @Test
    void aGetWithoutTokenSendsNeitherTokenNorBodyHeaders() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 204 No Content\r\n\r\n")) {
            assertThat(body(server, "GET", "/v1/jobs", null, null)).isEqualTo("204 ");
            assertThat(server.request()).doesNotContain("X-Nomad-Token", "Content-Type", "Content-Length");
        }
    }

    @Test
    void readsAChunkedAnswerWithExtensionsAndTrailers() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5;ext=1\r\nhello\r\n1\r\n \r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n")) {
            assertThat(body(server, "GET", "/", null, null)).isEqualTo("200 hello 0123456789");
        }
    }

    @Test
    void readsAnAnswerWithoutLengthToTheEndOfTheConnectionAndSkipsInterimAnswers() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.0 404 Not Found\n"
                + "Content-Type: application/json\n\n{\"error\":\"allocation not found: x\"}")) {
            assertThat(body(server, "GET", "/v1/allocation/x", null, null))
                    .isEqualTo("404 {\"error\":\"allocation not found: x\"}");
        }
    }

    @Test
    void aTruncatedOrMalformedAnswerIsOneClearIoError() throws Exception {
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort")) {
            assertThatThrownBy(() -> body(server, "GET", "/", null, null)).isInstanceOf(IOException.class)
                    .hasMessage("the agent closed the connection 95 bytes before the end of its answer");
        }
        try (CannedServer server = new CannedServer("SSH-2.0-OpenSSH_9.2\r\n\r\n")) {
            assertThatThrownBy(() -> body(server, "GET", "/", null, null)).isInstanceOf(IOException.class)
                    .hasMessage("malformed HTTP answer from the agent: not an HTTP/1.x status line: SSH-2.0-OpenSSH_9.2");
        }
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")) {
            assertThatThrownBy(() -> body(server, "GET", "/", null, null))
                    .hasMessage("malformed HTTP answer from the agent: bad chunk size zz");
        }
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nX: " + "x".repeat(70_000) + "\r\n\r\n")) {
            assertThatThrownBy(() -> body(server, "GET", "/", null, null))
                    .hasMessage("malformed HTTP answer from the agent: headers longer than 65536 bytes");
        }
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nContent-Length: -3\r\n\r\n")) {
            assertThatThrownBy(() -> body(server, "GET", "/", null, null))
                    .hasMessage("malformed HTTP answer from the agent: bad Content-Length -3");
        }
    }

    @Test
    void anAgentThatNeverAnswersTimesOutAtTheDeadline() throws Exception {
        try (CannedServer server = new CannedServer((byte[]) null)) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> http.send("GET", URI.create(server.address() + "/v1/jobs"), null, null,
                    Duration.ofMillis(300))).isInstanceOf(IOException.class).hasMessage("request timed out");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isBetween(Duration.ofMillis(250),
                    Duration.ofSeconds(5));
        }
    }

    @Test
    void aClosedPortIsARefusedConnection() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        assertThatThrownBy(() -> http.send("GET", URI.create("http://127.0.0.1:" + port + "/v1/jobs"), null, null,
                TIMEOUT)).isInstanceOf(ConnectFailure.class).hasMessage(ConnectFailure.REFUSED);
    }

    @Test
    void aStreamedBodyArrivesAsItIsWritten() throws Exception {
        // log follows: the body is read chunk by chunk, no deadline once connected
        try (CannedServer server = new CannedServer("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n");
                HttpResponseStream r = http.send("GET", URI.create(server.address() + "/logs"), null, null,
                        Duration.ZERO)) {
            byte[] buf = new byte[16];
            assertThat(r.body().read(buf)).isEqualTo(3);
            assertThat(r.body().read(buf)).isEqualTo(-1);
        }
    }
}
