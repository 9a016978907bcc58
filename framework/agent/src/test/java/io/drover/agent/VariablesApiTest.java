package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Nomad's variables API against a real agent: CRUD, check-and-set, blocking queries, bad input, restarts. */
class VariablesApiTest extends RunningAgentTest {
    private static final String BODY = "{\"Items\":{\"user\":\"admin\",\"pass\":\"s3cret\"}}";

    @Test
    void aVariableIsWrittenReadListedAndDeleted() throws Exception {
        assertThat(api.get("/v1/var/app/db").status()).isEqualTo(404);
        TestAgent.Resp put = api.call("PUT", "/v1/var/app/db", BODY);
        assertThat(put.status()).as(put.body()).isEqualTo(200);
        assertThat(put.json().path("Path").asText()).isEqualTo("app/db");
        assertThat(put.json().path("Namespace").asText()).isEqualTo("default");
        long created = put.json().path("CreateIndex").asLong();
        assertThat(created).isPositive();
        assertThat(put.json().path("ModifyIndex").asLong()).isEqualTo(created);

        TestAgent.Resp get = api.get("/v1/var/app/db");
        assertThat(get.status()).isEqualTo(200);
        assertThat(get.json().path("Items").path("pass").asText()).isEqualTo("s3cret");
        assertThat(get.json().path("CreateTime").asLong()).isPositive();

        api.call("PUT", "/v1/var/other/x", "{\"Items\":{\"a\":\"1\"}}");
        TestAgent.Resp list = api.get("/v1/vars?prefix=app");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json()).hasSize(1);
        assertThat(list.json().get(0).path("Path").asText()).isEqualTo("app/db");
        assertThat(list.json().get(0).has("Items")).as("a list has no items, as Nomad's").isFalse();
        assertThat(api.get("/v1/vars").json()).hasSize(2);

        TestAgent.Resp again = api.call("PUT", "/v1/var/app/db", "{\"Items\":{\"user\":\"root\"}}");
        assertThat(again.json().path("CreateIndex").asLong()).isEqualTo(created);
        assertThat(again.json().path("ModifyIndex").asLong()).isGreaterThan(created);
        assertThat(api.get("/v1/var/app/db").json().path("Items").has("pass")).isFalse();

        assertThat(api.call("DELETE", "/v1/var/app/db", null).status()).isEqualTo(200);
        assertThat(api.get("/v1/var/app/db").status()).isEqualTo(404);
    }

    @Test
    void checkAndSetRefusesAStaleIndexWithTheCurrentVariable() throws Exception {
        assertThat(api.call("PUT", "/v1/var/c?cas=0", BODY).status()).isEqualTo(200);
        TestAgent.Resp conflict = api.call("PUT", "/v1/var/c?cas=0", BODY);
        assertThat(conflict.status()).isEqualTo(409);
        long current = conflict.json().path("ModifyIndex").asLong();
        assertThat(current).isPositive();
        assertThat(conflict.json().path("Items").path("user").asText()).isEqualTo("admin");

        assertThat(api.call("PUT", "/v1/var/c?cas=" + (current - 1), BODY).status()).isEqualTo(409);
        TestAgent.Resp ok = api.call("PUT", "/v1/var/c?cas=" + current, "{\"Items\":{\"v\":\"2\"}}");
        assertThat(ok.status()).isEqualTo(200);
        long next = ok.json().path("ModifyIndex").asLong();
        assertThat(api.call("DELETE", "/v1/var/c?cas=" + current, null).status()).isEqualTo(409);
        assertThat(api.get("/v1/var/c").status()).isEqualTo(200);
        assertThat(api.call("DELETE", "/v1/var/c?cas=" + next, null).status()).isEqualTo(200);
        assertThat(api.get("/v1/var/c").status()).isEqualTo(404);
    }

    @Test
    void aBlockingReadWakesWhenTheVariableChanges() throws Exception {
        api.call("PUT", "/v1/var/w", BODY);
        HttpResponse<String> first = api.client.send(api.request("/v1/var/w").GET().build(),
                HttpResponse.BodyHandlers.ofString());
        long index = Long.parseLong(first.headers().firstValue("X-Nomad-Index").orElseThrow());
        CompletableFuture<HttpResponse<String>> waiting = api.client.sendAsync(api.request("/v1/var/w?index="
                + index + "&wait=50s").timeout(Duration.ofSeconds(60)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        Await.until("the query parked", () -> api.agent.waitingQueries() == 1);
        assertThat(waiting).isNotDone();
        api.call("PUT", "/v1/var/w", "{\"Items\":{\"changed\":\"yes\"}}");
        HttpResponse<String> woken = waiting.get(20, TimeUnit.SECONDS);
        assertThat(woken.statusCode()).isEqualTo(200);
        assertThat(woken.body()).contains("\"changed\":\"yes\"");
        assertThat(Long.parseLong(woken.headers().firstValue("X-Nomad-Index").orElseThrow())).isGreaterThan(index);
    }

    @Test
    void badPathsAndPayloadsGetOneLineNamingTheField() throws Exception {
        TestAgent.Resp escape = api.call("PUT", "/v1/var/a/..%2F..%2Fetc", BODY);
        assertThat(escape.status()).isEqualTo(400);
        assertThat(escape.error()).startsWith("Path: invalid path");
        assertThat(api.call("PUT", "/v1/var/a.b", BODY).error()).startsWith("Path: invalid path");
        assertThat(api.call("PUT", "/v1/var/" + "x".repeat(129), BODY).status()).isEqualTo(400);
        assertThat(api.call("PUT", "/v1/var/nomad/secret", BODY).error()).contains("reserved");
        assertThat(api.call("PUT", "/v1/var/nomad/jobs/web", BODY).status()).isEqualTo(200);

        TestAgent.Resp empty = api.call("PUT", "/v1/var/e", "{\"Items\":{}}");
        assertThat(empty.status()).isEqualTo(400);
        assertThat(empty.error()).startsWith("Items: empty variables are invalid");
        TestAgent.Resp typed = api.call("PUT", "/v1/var/e", "{\"Items\":{\"n\":1,\"ok\":\"x\",\"o\":{}}}");
        assertThat(typed.error()).isEqualTo("Items.n: expected a string, found number; "
                + "Items.o: expected a string, found object");
        assertThat(api.call("PUT", "/v1/var/e", "{\"Path\":\"other\",\"Items\":{\"a\":\"b\"}}").error())
                .startsWith("Path: \"other\" differs");
        assertThat(api.call("PUT", "/v1/var/e?cas=x", BODY).error()).startsWith("cas:");
        assertThat(api.call("PUT", "/v1/var/e", "[1]").status()).isEqualTo(400);
        assertThat(api.get("/v1/vars").json()).hasSize(1); // only nomad/jobs/web
    }

    @Test
    void variablesSurviveAnAgentRestart() throws Exception {
        api.call("PUT", "/v1/var/keep/me", BODY);
        long modify = api.get("/v1/var/keep/me").json().path("ModifyIndex").asLong();
        assertThat(java.nio.file.Files.getPosixFilePermissions(tmp.resolve("data/variables.json")))
                .as("the items are secrets: owner only").containsExactlyInAnyOrder(
                        java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                        java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
        api.close();
        api = TestAgent.start(tmp);
        TestAgent.Resp back = api.get("/v1/var/keep/me");
        assertThat(back.status()).isEqualTo(200);
        assertThat(back.json().path("Items").path("pass").asText()).isEqualTo("s3cret");
        assertThat(back.json().path("ModifyIndex").asLong()).isEqualTo(modify);
        TestAgent.Resp next = api.call("PUT", "/v1/var/keep/me?cas=" + modify, BODY);
        assertThat(next.status()).isEqualTo(200);
        assertThat(next.json().path("ModifyIndex").asLong()).as("indexes never go back").isGreaterThan(modify);
    }
}
