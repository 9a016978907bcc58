package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LogRoutesTest extends RunningAgentTest {
    static final String SIX_LINES = "line\n".repeat(6);

    /** A task that writes "line\n" at start and 5 more times, 30 ms apart, and "oops" on stderr. */
    private String chattyAlloc(String runFor) {
        return api.agent.jobs().register(batch("logs", 1, task("web", "run_for", runFor, "stdout_string", "line\n",
                "stdout_repeat", 5, "stdout_repeat_duration", "30ms", "stderr_string", "oops"))).placed().get(0).id();
    }

    @Test
    void readsAFinishedTasksLogPlainAndAsNomadFrames() throws Exception {
        String id = chattyAlloc("300ms");
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);

        TestAgent.Resp plain = api.get("/v1/client/fs/logs/" + id + "?task=web&type=stdout&plain=true");
        assertThat(plain.status()).isEqualTo(200);
        assertThat(plain.contentType()).startsWith("text/plain");
        assertThat(plain.body()).isEqualTo(SIX_LINES);

        TestAgent.Resp framed = api.get("/v1/client/fs/logs/" + id + "?task=web&type=stdout");
        assertThat(framed.contentType()).startsWith("application/json");
        assertThat(decodeFrames(framed.body())).isEqualTo(SIX_LINES);

        assertThat(api.get("/v1/client/fs/logs/" + id + "?task=web&type=stderr&plain=true").body())
                .isEqualTo("oops");
        assertThat(api.get("/v1/client/fs/logs/" + id + "?task=web&plain=true&origin=end&offset=7").body())
                .isEqualTo("e\nline\n");
        assertThat(api.get("/v1/client/fs/logs/" + id + "?task=web&plain=true&offset=25").body())
                .isEqualTo("line\n");
    }

    @Test
    void followStreamsUntilTheTaskIsDeadAndItsFileDrained() throws Exception {
        String id = chattyAlloc("400ms");
        HttpResponse<String> r = api.client.send(api.request("/v1/client/fs/logs/" + id
                + "?task=web&type=stdout&follow=true&plain=true").GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).isEqualTo(SIX_LINES);
        assertThat(api.alloc(id).terminal()).isTrue();

        String framed = api.get("/v1/client/fs/logs/" + id + "?task=web&follow=true").body();
        assertThat(decodeFrames(framed)).isEqualTo(SIX_LINES); // a dead task's follow ends once drained
    }

    @Test
    void aLogRequestNeverLeavesTheAllocationsLogFolder() throws Exception {
        String id = chattyAlloc("10ms");
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        String base = "/v1/client/fs/logs/" + id + "?plain=true&";
        for (String q : new String[] {"task=../../etc", "task=..%2F..%2Fetc%2Fpasswd", "task=%2e%2e%2f%2e%2e",
                "task=web%00", "task=web/..", "task=..", "task=a%5Cb", "task=web&type=..%2F..%2Fx",
                "task=web&type=stdout.0", "task=web&type=", "task=", "type=stdout"}) {
            TestAgent.Resp r = api.get(base + q);
            assertThat(r.status()).as(q).isEqualTo(400);
            assertThat(r.json().has("error")).as(q).isTrue();
        }
        assertThat(api.get(base + "task=passwd").status()).isEqualTo(404); // not a task of the allocation
        assertThat(api.get("/v1/client/fs/logs/..%2F..%2Fetc?task=web").status()).isEqualTo(404);
        assertThat(api.get("/v1/client/fs/logs/nope?task=web").status()).isEqualTo(404);
        assertThat(api.get("/v1/client/fs/logs/" + id + "/../../../etc/passwd?task=web").status()).isEqualTo(404);
    }

    @Test
    void aSymlinkPlantedInTheLogFolderIsNotFollowed() throws Exception {
        String id = chattyAlloc("10ms");
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        Path logs = api.agent.dataDir().resolve("alloc").resolve(id).resolve("alloc").resolve("logs");
        Path secret = Files.writeString(tmp.resolve("secret"), "SECRET");
        Files.createSymbolicLink(logs.resolve("web.stdout.1"), secret);

        String body = api.get("/v1/client/fs/logs/" + id + "?task=web&plain=true").body();
        assertThat(body).isEqualTo(SIX_LINES.substring(0, body.length())).doesNotContain("SECRET");
    }

    @Test
    void aLogFolderReplacedByALinkIsRefused() throws Exception {
        String id = chattyAlloc("10ms");
        api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        Path shared = api.agent.dataDir().resolve("alloc").resolve(id).resolve("alloc");
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Files.writeString(elsewhere.resolve("web.stdout.0"), "SECRET");
        Files.move(shared.resolve("logs"), tmp.resolve("moved"));
        Files.createSymbolicLink(shared.resolve("logs"), elsewhere);

        TestAgent.Resp r = api.get("/v1/client/fs/logs/" + id + "?task=web&plain=true");
        assertThat(r.status()).isEqualTo(403);
        assertThat(r.body()).doesNotContain("SECRET");
    }

    @Test
    void followsAreCappedAndADisconnectedFollowerFreesItsSlot() throws Exception {
        String id = api.agent.jobs().register(batch("chatty", 1, task("web", "run_for", "1h",
                "stdout_string", "x\n", "stdout_repeat", 100000, "stdout_repeat_duration", "10ms"))).placed().get(0)
                .id();
        Await.until("web running", () -> api.alloc(id).clientStatus().wireName().equals("running"));
        String request = "GET /v1/client/fs/logs/" + id + "?task=web&follow=true&plain=true HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        List<Socket> followers = new ArrayList<>();
        try {
            for (int i = 0; i < 64; i++) {
                Socket s = new Socket("127.0.0.1", api.agent.httpPort());
                followers.add(s);
                s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
            Await.until("64 follows", () -> api.agent.activeLogFollows() == 64);
            TestAgent.Resp over = api.get("/v1/client/fs/logs/" + id + "?task=web&follow=true&plain=true");
            assertThat(over.status()).isEqualTo(429);
            assertThat(over.error()).contains("64");

            for (Socket s : followers) {
                s.close();
            }
            // the task keeps writing, so each follower's next write fails and it lets go of its slot
            Await.until("follows released", () -> api.agent.activeLogFollows() == 0);
            TestAgent.Resp plain = api.get("/v1/client/fs/logs/" + id + "?task=web&plain=true");
            assertThat(plain.status()).isEqualTo(200);
            assertThat(plain.body()).startsWith("x\nx\n");
        } finally {
            for (Socket s : followers) {
                s.close();
            }
            // the mock writes on the timer thread, which close does not wait for: end it before cleanup
            api.agent.engine().stop(id);
            api.agent.engine().terminal(id).get(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void badQueryValuesAre400() throws Exception {
        String id = chattyAlloc("10ms");
        String base = "/v1/client/fs/logs/" + id + "?task=web&";
        assertThat(api.get(base + "offset=-1").status()).isEqualTo(400);
        assertThat(api.get(base + "offset=x").status()).isEqualTo(400);
        assertThat(api.get(base + "origin=middle").status()).isEqualTo(400);
        assertThat(api.get(base + "follow=maybe").status()).isEqualTo(400);
    }

    /** Concatenated {"File","Offset","Data"} frames (and {} heartbeats) back to the bytes they carry. */
    static String decodeFrames(String body) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonParser p = TestAgent.JSON.getFactory().createParser(body)) {
            Iterator<JsonNode> frames = TestAgent.JSON.readValues(p, JsonNode.class);
            while (frames.hasNext()) {
                JsonNode f = frames.next();
                if (f.has("Data")) {
                    assertThat(f.path("File").asText()).startsWith("alloc/logs/web.stdout.");
                    out.write(Base64.getDecoder().decode(f.path("Data").asText()));
                }
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
