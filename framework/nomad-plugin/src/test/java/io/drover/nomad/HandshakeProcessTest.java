package io.drover.nomad;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.nomad.server.Handshake;
import io.drover.process.ProcessLeakCheck;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The plugin process as go-plugin's client sees its stdout: exactly one line, the handshake, and nothing after it
 * even while it serves and shuts down; without Nomad's magic cookie, one line on stderr and exit 1, stdout empty.
 */
@ExtendWith(ProcessLeakCheck.class)
class HandshakeProcessTest {

    private static ProcessBuilder plugin(Map<String, String> extraEnv) {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), NomadPlugin.class.getName(), "raw_exec",
                "-plugin-dir", System.getProperty("drover.nomad.plugins"));
        pb.environment().clear();
        pb.environment().putAll(ProcessLeakCheck.env());
        pb.environment().putAll(extraEnv);
        return pb;
    }

    @Test
    void stdoutCarriesOnlyTheHandshakeLine() throws Exception {
        Process p = plugin(Map.of(Handshake.COOKIE_KEY, Handshake.COOKIE_VALUE, "PLUGIN_PROTOCOL_VERSIONS", "2",
                "PLUGIN_MIN_PORT", "10000", "PLUGIN_MAX_PORT", "25000"))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).matches("1\\|2\\|tcp\\|127\\.0\\.0\\.1:\\d+\\|grpc");
            int port = Integer.parseInt(line.split("\\|")[3].split(":")[1]);
            assertThat(port).isBetween(10000, 25000);
            p.toHandle().destroy(); // SIGTERM (Process.destroy would close the pipe under test)
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(out.readLine()).as("nothing after the handshake line").isNull();
        } finally {
            p.destroyForcibly();
            p.waitFor();
        }
    }

    @Test
    void withoutTheCookieOneLineAndExit1() throws Exception {
        Process p = plugin(Map.of()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(out).isEmpty();
        assertThat(err.lines().toList()).hasSize(1).first().asString().contains("NOMAD_PLUGIN_MAGIC_COOKIE is not set")
                .contains("docs/nomad.md").doesNotContain("Exception");
    }

    @Test
    void autoMtlsAndAnotherProtocolAreRefusedInOneLineEach() {
        List<String> problems = Handshake.problems(Map.of(Handshake.COOKIE_KEY, Handshake.COOKIE_VALUE,
                "PLUGIN_PROTOCOL_VERSIONS", "3,4", "PLUGIN_CLIENT_CERT", "-----BEGIN CERTIFICATE-----"));
        assertThat(problems).hasSize(2);
        assertThat(problems.get(0)).contains("protocol 3,4").contains("speaks 2");
        assertThat(problems.get(1)).contains("AutoMTLS");
        assertThat(Handshake.problems(Map.of(Handshake.COOKIE_KEY, Handshake.COOKIE_VALUE,
                "PLUGIN_PROTOCOL_VERSIONS", "1,2"))).isEmpty();
    }
}
