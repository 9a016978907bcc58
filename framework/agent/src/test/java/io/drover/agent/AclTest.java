package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AclTest {
    static final String TOKEN = "s3cret-token-0123456789";

    @TempDir
    Path tmp;
    TestAgent api;

    @BeforeEach
    void start() throws Exception {
        api = TestAgent.start(tmp, TOKEN, null);
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private TestAgent.Resp get(String path, String header, String value) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(api.uri(path)).GET();
        if (header != null) {
            b.header(header, value);
        }
        return api.send(b.build());
    }

    @Test
    void aRequestWithoutTheTokenIs401AndTouchesNothing() throws Exception {
        TestAgent.Resp r = get("/v1/jobs", null, null);
        assertThat(r.status()).isEqualTo(401);
        assertThat(r.error()).contains("token");
        assertThat(get("/v1/nothing", null, null).status()).isEqualTo(401); // before routing: no route leaks
        assertThat(api.send(HttpRequest.newBuilder(api.uri("/v1/system/gc"))
                .PUT(HttpRequest.BodyPublishers.noBody()).build()).status()).isEqualTo(401);
        assertThat(api.gcRequests.get()).isZero();
    }

    @Test
    void aWrongTokenIs403() throws Exception {
        assertThat(get("/v1/jobs", "X-Nomad-Token", "s3cret-token-0123456788").status()).isEqualTo(403);
        assertThat(get("/v1/jobs", "X-Nomad-Token", TOKEN + "x").status()).isEqualTo(403);
        assertThat(get("/v1/jobs", "Authorization", "Bearer nope").status()).isEqualTo(403);
        assertThat(get("/v1/jobs", "Authorization", "Basic " + TOKEN).status()).isEqualTo(401);
    }

    @Test
    void theTokenIsAcceptedInNomadsHeaderOrAsABearer() throws Exception {
        assertThat(get("/v1/jobs", "X-Nomad-Token", TOKEN).status()).isEqualTo(200);
        assertThat(get("/v1/agent/health", "Authorization", "Bearer " + TOKEN).status()).isEqualTo(200);
        assertThat(api.get("/v1/plugins").status()).isEqualTo(200); // the helper sends X-Nomad-Token
    }
}
