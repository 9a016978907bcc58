package io.drover.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's {@code host_volume "NAME" { path, read_only }} blocks, Nomad's client config keys. */
class HostVolumeConfigTest {
    @TempDir
    Path dir;

    private Path write(String text) throws IOException {
        Path f = dir.resolve("agent.hcl");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void hostVolumesAreReadByNameInOrder() throws Exception {
        Path data = Files.createDirectory(dir.resolve("data"));
        Path certs = Files.createDirectory(dir.resolve("certs"));
        AgentConfig c = AgentConfigParser.parse(write("""
                client {
                  host_volume "data" {
                    path = "%s"
                  }
                  host_volume "certs" {
                    path      = "%s/"
                    read_only = true
                  }
                }
                """.formatted(data, certs)));
        assertThat(c.client().node().hostVolumes()).containsExactly(
                java.util.Map.entry("data", new HostVolumeConfig("data", data.toString(), false)),
                java.util.Map.entry("certs", new HostVolumeConfig("certs", certs.toString(), true)));
        assertThat(AgentConfigParser.parse(write("client {}\n")).client().node().hostVolumes()).isEmpty();
    }

    @Test
    void aBadHostVolumeIsOneLineNamingFileLineAndKey() throws Exception {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertThatThrownBy(() -> AgentConfigParser.parse(write(
                "client {\n  host_volume \"a\" {\n    path = \"relative/dir\"\n  }\n}\n")))
                .hasMessageContaining("agent.hcl:3: client > host_volume \"a\" > path: must be an absolute path,"
                        + " found \"relative/dir\"").message().doesNotContain("\n");
        assertThatThrownBy(() -> AgentConfigParser.parse(write(
                "client {\n  host_volume \"a\" {\n    path = \"" + dir.resolve("missing") + "\"\n  }\n}\n")))
                .hasMessageContaining("path: \"" + dir.resolve("missing") + "\" does not exist");
        assertThatThrownBy(() -> AgentConfigParser.parse(write(
                "client {\n  host_volume \"a\" {\n    path = \"" + file + "\"\n  }\n}\n")))
                .hasMessageContaining("is not a directory (Drover mounts directories only)");
        assertThatThrownBy(() -> AgentConfigParser.parse(write(
                "client {\n  host_volume \"a\" {\n    read_only = true\n  }\n}\n")))
                .hasMessageContaining("client > host_volume \"a\" > path: is required");
        assertThatThrownBy(() -> AgentConfigParser.parse(write("client {\n  host_volume \"a\" {\n    path = \"/\"\n"
                + "  }\n  host_volume \"a\" {\n    path = \"/\"\n  }\n}\n")))
                .hasMessageContaining("agent.hcl:5: client > host_volume \"a\": host volume configured more than once"
                        + " (first at line 2)");
        assertThatThrownBy(() -> AgentConfigParser.parse(write(
                "client {\n  host_volume \"a\" {\n    path = \"/\"\n    colour = 1\n  }\n}\n")))
                .hasMessageContaining("client > host_volume \"a\" > colour: unknown key");
    }
}
