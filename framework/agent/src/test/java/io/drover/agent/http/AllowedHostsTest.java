package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.HttpConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code http { allowed_hosts }}: an operator's name (a DNS name, a proxy's) is served; others still are not. */
class AllowedHostsTest {
    @Test
    void aConfiguredNameIsServedWithAnyPortAndItsOwnOriginWhileOthersAreRefused() throws Exception {
        Router router = new Router().add("GET", "/v1/jobs", r -> r.respond(200, Map.of()))
                .add("PUT", "/v1/jobs", r -> r.respond(200, Map.of()));
        try (ApiServer api = ApiServer.start("127.0.0.1", 0, router, null,
                new HttpConfig(List.of("Drover.Example.com", "10.1.2.3:80")), Optional::empty)) {
            assertThat(status(api.port(), "GET", "Host: drover.example.com")).isEqualTo(200);
            assertThat(status(api.port(), "GET", "Host: drover.example.com.:8443")).isEqualTo(200);
            assertThat(status(api.port(), "GET", "Host: 10.1.2.3")).isEqualTo(200);
            assertThat(status(api.port(), "PUT", "Host: drover.example.com",
                    "Origin: https://drover.example.com")).isEqualTo(200);
            assertThat(status(api.port(), "PUT", "Host: drover.example.com",
                    "Origin: https://drover.example.com:444")).isEqualTo(403);
            assertThat(status(api.port(), "GET", "Host: example.com")).isEqualTo(403);
            assertThat(status(api.port(), "GET", "Host: 10.1.2.4")).isEqualTo(403);
        }
    }

    private static int status(int port, String method, String... headers) throws IOException {
        StringBuilder req = new StringBuilder(method + " /v1/jobs HTTP/1.1\r\n");
        for (String h : headers) {
            req.append(h).append("\r\n");
        }
        req.append("Connection: close\r\n\r\n");
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(head.substring(9, 12));
        }
    }
}
