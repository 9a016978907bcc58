package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The browser rules on their own: which Host, Origin and body types pass (the replays are CrossSiteRequestTest). */
class RequestOriginTest {
    private static Function<String, String> headers(String... kv) {
        Map<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m::get;
    }

    private static int status(RequestOrigin o, String... kv) {
        try {
            o.check(headers(kv));
            return 200;
        } catch (ApiException e) {
            return e.status();
        }
    }

    @Test
    void aLoopbackBindKnowsItsLoopbackNamesOnly() {
        RequestOrigin o = RequestOrigin.forAgent("127.0.0.1", List.of());
        assertThat(o.hosts()).contains("127.0.0.1", "localhost", "::1");
        assertThat(status(o, "Host", "127.0.0.1:4747")).isEqualTo(200);
        assertThat(status(o, "Host", "Localhost.")).isEqualTo(200);
        assertThat(status(o, "Host", "[::1]:4747")).isEqualTo(200);
        assertThat(status(o, "Host", "127.0.0.2")).isEqualTo(403);
        assertThat(status(o, "Host", "localhost.evil.example")).isEqualTo(403);
        assertThat(status(o, "Host", "")).isEqualTo(403);
    }

    @Test
    void anIpv6AndAWildcardBind() {
        assertThat(RequestOrigin.forAgent("::1", List.of()).hosts()).contains("::1", "localhost", "127.0.0.1");
        RequestOrigin any = RequestOrigin.forAgent("0.0.0.0", List.of());
        assertThat(any.hosts()).contains("0.0.0.0", "127.0.0.1", "localhost");
        assertThat(status(any, "Host", "evil.example")).isEqualTo(403);
    }

    @Test
    void theOriginMustBeTheRequestsOwnHostWithTheSamePort() {
        RequestOrigin o = RequestOrigin.forAgent("127.0.0.1", List.of());
        assertThat(status(o, "Host", "127.0.0.1:4747", "Origin", "http://127.0.0.1:4747")).isEqualTo(200);
        assertThat(status(o, "Host", "localhost", "Origin", "http://localhost:80")).isEqualTo(200);
        assertThat(status(o, "Host", "localhost:4747", "Origin", "http://localhost:8000")).isEqualTo(403);
        assertThat(status(o, "Host", "localhost:4747", "Origin", "http://127.0.0.1:4747")).isEqualTo(403);
        assertThat(status(o, "Host", "localhost:4747", "Origin", "null")).isEqualTo(403);
        assertThat(status(o, "Host", "localhost:4747", "Origin", "file://")).isEqualTo(403);
        assertThat(status(o, "Origin", "http://localhost:4747")).as("no Host to compare with").isEqualTo(403);
    }

    @Test
    void aBodyMustBeJsonUnlessTheMethodReadsOrThereIsNone() {
        assertThatCode(() -> RequestOrigin.checkBody("PUT", headers("Content-Length", "10",
                "Content-Type", "Application/JSON; charset=utf-8"))).doesNotThrowAnyException();
        assertThatCode(() -> RequestOrigin.checkBody("DELETE", headers())).doesNotThrowAnyException();
        assertThatCode(() -> RequestOrigin.checkBody("PUT", headers("Content-Length", "0"))).doesNotThrowAnyException();
        assertThatCode(() -> RequestOrigin.checkBody("GET", headers("Content-Length", "5", "Content-Type",
                "text/plain"))).doesNotThrowAnyException();
        assertThatThrownBy(() -> RequestOrigin.checkBody("POST", headers("Transfer-Encoding", "chunked",
                "Content-Type", "application/x-www-form-urlencoded")))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(415))
                .hasMessage("POST with a body needs Content-Type: application/json, found "
                        + "\"application/x-www-form-urlencoded\"");
        assertThatThrownBy(() -> RequestOrigin.checkBody("PUT", headers("Content-Length", "3",
                "Origin", "http://localhost:4747"))).hasMessageEndingWith("found none");
        assertThatCode(() -> RequestOrigin.checkBody("PUT", headers("Content-Length", "3")))
                .as("Nomad's Go api client: no type, no Origin").doesNotThrowAnyException();
    }
}
