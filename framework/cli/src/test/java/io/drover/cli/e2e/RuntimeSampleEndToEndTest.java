package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sample-jobs/runtime.hcl} through {@code drover run} with a real raw_exec process and a real HTTP server on
 * loopback serving its artifact: the tar.gz is fetched and unpacked, both templates rendered (one into the env),
 * meta and the dynamic port reach the task, and the allocation JSON shows the port as Nomad's API does.
 */
class RuntimeSampleEndToEndTest {
    @TempDir
    Path dir;
    private Path config;
    private HttpServer server;
    private final AtomicInteger downloads = new AtomicInteger();

    @BeforeEach
    void setUp() throws Exception {
        config = TestConfig.write(dir);
        byte[] site = tarGz("index.html", "<h1>site from the artifact</h1>\n");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/site.tar.gz", ex -> {
            downloads.incrementAndGet();
            ex.sendResponseHeaders(200, site.length);
            ex.getResponseBody().write(site);
            ex.close();
        });
        server.start();
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
        assertThat(NoProcessLeft.under(dir)).isEmpty();
    }

    private static byte[] tarGz(String name, String content) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(bytes))) {
            byte[] data = content.getBytes(StandardCharsets.UTF_8);
            TarArchiveEntry e = new TarArchiveEntry(name);
            e.setSize(data.length);
            tar.putArchiveEntry(e);
            tar.write(data);
            tar.closeArchiveEntry();
        }
        return bytes.toByteArray();
    }

    /** The sample, with its meta pointing at this test's server (the only change). */
    private Path job() throws Exception {
        String text = Files.readString(TestConfig.SAMPLES.resolve("runtime.hcl"));
        String pointed = text.replace("artifact_port = \"8765\"",
                "artifact_port = \"" + server.getAddress().getPort() + "\"");
        assertThat(pointed).isNotEqualTo(text);
        return Files.writeString(dir.resolve("runtime.hcl"), pointed);
    }

    @Test
    void artifactTemplateNetworkAndMetaTogether() throws Exception {
        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), job().toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        assertThat(alloc.path("ClientStatus").asText()).isEqualTo("complete");
        assertThat(Allocs.types(alloc.path("TaskStates").path("serve"))).containsExactly("Received", "Task Setup",
                "Downloading Artifacts", "Started", "Terminated");
        JsonNode port = alloc.path("AllocatedResources").path("Shared").path("Ports").get(0);
        assertThat(port.path("Label").asText()).isEqualTo("http");
        int http = port.path("Value").asInt();
        assertThat(http).isBetween(20000, 32000);
        assertThat(port.path("HostIP").asText()).isEqualTo("127.0.0.1");
        JsonNode net = alloc.path("AllocatedResources").path("Shared").path("Networks").get(0);
        assertThat(net.path("Mode").asText()).isEqualTo("host");
        assertThat(net.path("DynamicPorts").get(0).path("Value").asInt()).isEqualTo(http);
        assertThat(downloads.get()).isEqualTo(1);

    }

    @Test
    void theTaskSeesTheArtifactTheRenderedTemplatesThePortAndMeta() throws Exception {
        CliRun run = CliRun.of("run", "-verbose", "-config", config.toString(), job().toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("<h1>site from the artifact</h1>", "greeting = \"HELLO FROM THE TASK\"",
                "item0 = \"a\"", "item1 = \"b\"", "arg=hello from the task");
        assertThat(run.out()).containsPattern("listen = \"127\\.0\\.0\\.1:(2\\d{4}|3[01]\\d{3}|32000)\"");
        assertThat(run.out()).containsPattern("app_addr=127\\.0\\.0\\.1:\\d{5} ");
    }
}
