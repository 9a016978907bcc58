package org.example.drover.httpprobe;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.drover.driver.api.DriverContext;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.tck.DriverTck;
import io.drover.driver.tck.WallTimers;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The http_probe driver against Drover's driver TCK, probing a real HTTP server on a free loopback port: {@code /ok}
 * answers 200, {@code /broken} 500.
 */
class HttpProbeDriverTckTest extends DriverTck {
    private static HttpServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/ok", x -> {
            x.sendResponseHeaders(200, -1);
            x.close();
        });
        server.createContext("/broken", x -> {
            x.sendResponseHeaders(500, -1);
            x.close();
        });
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    private static String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    @Override
    protected TaskDriver createDriver() {
        return new HttpProbeDriver();
    }

    /** 0: one good probe, then exit 0; otherwise a failing probe with that exit code. */
    @Override
    protected Map<String, Object> exitsWith(int code) {
        return code == 0 ? Map.of("url", url("/ok"), "max_probes", 1)
                : Map.of("url", url("/broken"), "fail_exit_code", code);
    }

    @Override
    protected Map<String, Object> runsUntilKilled() {
        return Map.of("url", url("/ok"), "interval", "50ms");
    }

    @Test
    void aFailingProbeFailsTheTaskNamingTheStatus() throws Exception {
        HttpProbeDriver driver = new HttpProbeDriver();
        driver.init(new DriverContext(Map.of(), new WallTimers(), "test"));
        try {
            driver.start(task("p1", Map.of("url", url("/broken"), "expect_status", 200))).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS);
            ExitResult exit = driver.awaitExit("p1").toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(exit.exitCode()).isEqualTo(1);
            assertThat(exit.message()).isEqualTo("probe of " + url("/broken") + " answered 500, expected 200");
            assertThat(driver.validateConfig(Map.of("url", "file:///etc/passwd"))).singleElement()
                    .satisfies(p -> assertThat(p.key()).isEqualTo("url"));
        } finally {
            driver.close();
        }
    }
}
