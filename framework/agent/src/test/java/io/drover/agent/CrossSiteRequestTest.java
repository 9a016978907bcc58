package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Issue 12, finding 4: with no token (the default) a web page on any origin could register a job — a "simple"
 * cross-site {@code POST} needs no CORS preflight when its body is {@code text/plain}, and a DNS-rebound name
 * makes the browser send {@code Host: evil.example}. Each attack is replayed on a real agent with raw HTTP
 * requests: refused with one line, nothing registered.
 */
class CrossSiteRequestTest extends RunningAgentTest {
    private int port() {
        return api.agent.httpPort();
    }

    private String self() {
        return "127.0.0.1:" + port();
    }

    private void assertNoJob() throws Exception {
        assertThat(api.get("/v1/jobs").json()).as("nothing registered").isEmpty();
    }

    @Test
    void aBrowsersSimplePostFromAForeignPageIsRefusedAndRegistersNothing() throws Exception {
        RawHttp.Resp r = RawHttp.send(port(), "POST", "/v1/jobs", JobRoutesTest.API_JOB, "Host: " + self(),
                "Origin: http://evil.example", "Content-Type: text/plain;charset=UTF-8");
        assertThat(r.status()).as(r.body()).isEqualTo(403);
        assertThat(r.body()).contains("Origin \\\"http://evil.example\\\" is not this agent's");
        assertNoJob();
    }

    @Test
    void aDnsRebindingRequestIsRefusedByItsHostAndRegistersNothing() throws Exception {
        // after rebinding, the page is "same-origin" with the agent: Origin and Host both name the attacker
        RawHttp.Resp r = RawHttp.send(port(), "POST", "/v1/jobs", JobRoutesTest.API_JOB, "Host: evil.example:" + port(),
                "Origin: http://evil.example:" + port(), "Content-Type: text/plain");
        assertThat(r.status()).as(r.body()).isEqualTo(403);
        assertThat(r.body()).contains("Host \\\"evil.example:" + port() + "\\\" is not one of this agent's names");
        assertNoJob();
        RawHttp.Resp read = RawHttp.send(port(), "GET", "/v1/jobs", null, "Host: evil.example");
        assertThat(read.status()).as("reads too: a rebound page must not read allocations").isEqualTo(403);
    }

    @Test
    void aWriteWithABodyThatIsNotJsonIs415AndRegistersNothing() throws Exception {
        RawHttp.Resp r = RawHttp.send(port(), "POST", "/v1/jobs", JobRoutesTest.API_JOB, "Host: " + self(),
                "Content-Type: text/plain");
        assertThat(r.status()).as(r.body()).isEqualTo(415);
        assertThat(r.body()).contains("Content-Type: application/json");
        // no type at all from a browser (a Blob body): it always sends Origin on a PUT, even its own one
        RawHttp.Resp none = RawHttp.send(port(), "PUT", "/v1/jobs", JobRoutesTest.API_JOB, "Host: " + self(),
                "Origin: http://" + self());
        assertThat(none.status()).as(none.body()).isEqualTo(415);
        assertNoJob();
    }

    @Test
    void aBodyWithNoTypeAndNoOriginIsNomadsGoClientAndRegisters() throws Exception {
        RawHttp.Resp r = RawHttp.send(port(), "PUT", "/v1/jobs", JobRoutesTest.API_JOB, "Host: " + self());
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(api.get("/v1/jobs").json()).hasSize(1);
    }

    @Test
    void aForeignOriginCannotStopOrCollectEvenWithoutABody() throws Exception {
        api.agent.jobs().register(MockJobs.batch("kept", 1, MockJobs.task("web", "run_for", "1h")));
        RawHttp.Resp stop = RawHttp.send(port(), "DELETE", "/v1/job/kept", null, "Host: " + self(),
                "Origin: http://localhost:8000");
        assertThat(stop.status()).as(stop.body()).isEqualTo(403);
        RawHttp.Resp gc = RawHttp.send(port(), "PUT", "/v1/system/gc", null, "Host: " + self(), "Origin: null");
        assertThat(gc.status()).as(gc.body()).isEqualTo(403);
        assertThat(api.gcRequests.get()).isZero();
        assertThat(api.get("/v1/job/kept").json().path("Stop").asBoolean()).isFalse();
    }

    @Test
    void theAgentsOwnNamesAndOriginAndNonBrowserClientsAreServed() throws Exception {
        for (String host : new String[] {self(), "127.0.0.1", "localhost:" + port(), "LOCALHOST", "[::1]:" + port()}) {
            assertThat(RawHttp.send(port(), "GET", "/v1/jobs", null, "Host: " + host).status()).as(host)
                    .isEqualTo(200);
        }
        RawHttp.Resp same = RawHttp.send(port(), "PUT", "/v1/jobs", JobRoutesTest.API_JOB, "Host: " + self(),
                "Origin: http://" + self(), "Content-Type: application/json; charset=utf-8");
        assertThat(same.status()).as(same.body()).isEqualTo(200);
        // no Host: served when HTTP/1.0 (no browser sends that); an HTTP/1.1 request without Host is malformed
        // (RFC 9112 section 3.2: a server MUST answer 400), which Jetty's parser enforces (the JDK server served it)
        assertThat(http10NoHost()).startsWith("HTTP/1.1 200");
        RawHttp.Resp noHost = RawHttp.send(port(), "GET", "/v1/jobs", null);
        assertThat(noHost.status()).isEqualTo(400);
        assertThat(RawHttp.send(port(), "PUT", "/v1/system/gc", null, "Host: " + self()).status())
                .as("no body, no content type needed").isEqualTo(200);
    }

    /** {@code GET /v1/jobs HTTP/1.0} with no headers at all; the status line of the answer. */
    private String http10NoHost() throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write("GET /v1/jobs HTTP/1.0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }
}
