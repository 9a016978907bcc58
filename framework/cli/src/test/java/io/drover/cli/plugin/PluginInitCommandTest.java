package io.drover.cli.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover plugin init}: the project it writes, and what it refuses (writing nothing). That the project builds
 * and passes its TCK offline against the installed SDK is proven by {@code .ci/run} (scripts/sdk-check.sh), which
 * runs Maven on it.
 */
class PluginInitCommandTest {
    @TempDir
    Path tmp;

    @Test
    void writesAStandaloneProjectWithDriverSchemaJobTckAndReadme() throws Exception {
        Path dir = tmp.resolve("probe");
        CliRun run = CliRun.of("plugin", "init", "http_check", dir.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).startsWith("Created the http_check driver plugin project in " + dir + ":\n");
        String src = "src/main/java/org/example/drover/httpcheck/";
        for (String f : new String[] {"pom.xml", src + "HttpCheckDriver.java",
                "src/test/java/org/example/drover/httpcheck/HttpCheckDriverTckTest.java", "jobs/http_check.hcl",
                "README.md", ".gitignore"}) {
            assertThat(dir.resolve(f)).as(f).isRegularFile();
        }
        String pom = Files.readString(dir.resolve("pom.xml"));
        assertThat(pom).contains("<artifactId>drover-driver-parent</artifactId>")
                .contains("<plugin.id>http_check</plugin.id>").contains("<artifactId>http-check-driver</artifactId>");
        assertThat(pom.lines().count()).isLessThanOrEqualTo(22);
        String driver = Files.readString(dir.resolve(src + "HttpCheckDriver.java"));
        assertThat(driver).contains("package org.example.drover.httpcheck;")
                .contains("public final class HttpCheckDriver implements TaskDriver")
                .contains("public static final String NAME = \"http_check\";").doesNotContain("{{");
        assertThat(Files.readString(dir.resolve("jobs/http_check.hcl"))).contains("driver = \"http_check\"");
        assertThat(Files.readString(dir.resolve("README.md"))).contains("mvn -B verify")
                .contains("target/http-check-driver-0.1.0.jar").contains("drover run -config");
    }

    @Test
    void refusesABadNameOrAFolderInUseAndWritesNothing() throws Exception {
        CliRun bad = CliRun.of("plugin", "init", "Bad-Name", tmp.resolve("x").toString());
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).isEqualTo("Error: driver name \"Bad-Name\" must be lower case letters, digits and _,"
                + " starting with a letter (at most 40), e.g. sleep or http_probe\n");
        assertThat(tmp.resolve("x")).doesNotExist();

        Path used = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(used.resolve("keep.txt"), "mine");
        CliRun busy = CliRun.of("plugin", "init", "sleep", used.toString());
        assertThat(busy.exitCode()).isEqualTo(2);
        assertThat(busy.err()).isEqualTo("Error: " + used + " is not empty; name a new folder (nothing was written)\n");
        try (var entries = Files.list(used)) {
            assertThat(entries).containsExactly(used.resolve("keep.txt"));
        }

        Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectories(tmp.resolve("real")));
        CliRun linked = CliRun.of("plugin", "init", "sleep", link.toString());
        assertThat(linked.exitCode()).isEqualTo(2);
        assertThat(linked.err()).contains("is a symbolic link");
        try (var entries = Files.list(tmp.resolve("real"))) {
            assertThat(entries).isEmpty();
        }
    }
}
