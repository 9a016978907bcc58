package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's staleness check ({@code needs_build} in {@code ./drover}): the README promises a build on first
 * use and after any edit. Run on a tree of its own in a temp dir, the real launcher script with a {@code mvn} on
 * PATH that only records that it was called and a {@code java} that only prints; file times are set explicitly
 * (no waiting for the clock). Each launcher run is awaited and its process tree checked gone.
 */
class LauncherStalenessTest {
    private static final Instant T0 = Instant.now().minusSeconds(3600);

    @TempDir
    Path dir;

    private Path root;
    private Path builds;

    @BeforeEach
    void tree() throws IOException {
        Path home = Path.of(System.getProperty("drover.home")).toAbsolutePath().normalize();
        root = Files.createDirectories(dir.resolve("root"));
        Files.copy(home.resolve("drover"), root.resolve("drover"));
        for (String f : List.of("pom.xml", "framework/pom.xml", "framework/core/pom.xml", "plugins/mock/pom.xml",
                "framework/core/src/main/java/io/x/A.java", "plugins/mock/src/main/resources/x.properties",
                "drivers/api/src/test/java/B.java", "sample-jobs/java/Hello.java",
                "framework/core/target/classes/io/x/A.class", "sample-jobs/java/classes/Hello.class",
                "docs/notes.md", "framework/cli/jvm-client.args", "framework/cli/target/classpath.txt")) {
            Path p = root.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "x\n");
        }
        Files.createDirectories(root.resolve("plugins/dist"));
        Files.writeString(root.resolve("framework/cli/target/drover-cli.jar"), "jar");
        builds = dir.resolve("builds.log");
        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("mvn"), "#!/bin/sh\necho build >> '" + builds + "'\n");
        Path jdk = Files.createDirectories(dir.resolve("jdk/bin"));
        script(jdk.resolve("java"), "#!/bin/sh\necho ran\n");
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Files.setLastModifiedTime(p, FileTime.from(T0));
            }
        }
        Files.setLastModifiedTime(jar(), FileTime.from(T0.plusSeconds(10)));
    }

    @Test
    void anyModulesSourceOrPomEditedInPlaceIsBuiltAndNothingElse() throws Exception {
        assertThat(run()).as("fresh tree").isEqualTo(0);
        for (String f : List.of("framework/core/src/main/java/io/x/A.java", "drivers/api/src/test/java/B.java",
                "plugins/mock/src/main/resources/x.properties", "framework/core/pom.xml", "pom.xml",
                "framework/pom.xml", "plugins/mock/pom.xml", "sample-jobs/java/Hello.java")) {
            editInPlace(f, true);
            assertThat(run()).as(f + " edited in place").isEqualTo(1);
            assertThat(run()).as("after the build of " + f).isEqualTo(0); // the launcher marked the jar built
        }
        for (String f : List.of("framework/core/target/classes/io/x/A.class", "sample-jobs/java/classes/Hello.class",
                "docs/notes.md")) {
            editInPlace(f, false); // the sources are all older than the jar now
            assertThat(run()).as(f + " is no source").isEqualTo(0);
        }
        Path added = root.resolve("framework/core/src/main/java/io/x/New.java");
        Files.writeString(added, "class New {}\n");
        Files.setLastModifiedTime(added, FileTime.from(Files.getLastModifiedTime(jar()).toInstant().plusSeconds(1)));
        assertThat(run()).as("a new source file").isEqualTo(1);
    }

    /** The launcher's check names the modules' folders: every pom.xml of the reactor must be one it names. */
    @Test
    void everyModuleOfTheRepositoryIsWhereTheCheckLooks() throws IOException {
        Path home = Path.of(System.getProperty("drover.home")).toAbsolutePath().normalize();
        List<String> deeper = new ArrayList<>();
        for (String top : List.of("framework", "drivers", "plugins")) {
            try (Stream<Path> all = Files.walk(home.resolve(top))) {
                all.filter(p -> p.getFileName().toString().equals("pom.xml"))
                        .map(p -> home.relativize(p).toString())
                        .filter(p -> !p.contains("/target/") && !p.contains("/src/") && p.split("/").length > 3)
                        .forEach(deeper::add);
            }
        }
        assertThat(deeper).as("pom.xml deeper than TOP/MODULE/pom.xml (add it to the launcher's find)").isEmpty();
    }

    /**
     * Rewrites the file's content without creating a new file (no directory changes), its time one second after the
     * jar's; with {@code jarBuiltAtT0} the jar's time is set back to T0 + 10 s first (a build before touched it to
     * now), so that the launcher's next touch makes the edit older than the jar.
     */
    private void editInPlace(String file, boolean jarBuiltAtT0) throws IOException {
        if (jarBuiltAtT0) {
            Files.setLastModifiedTime(jar(), FileTime.from(T0.plusSeconds(10)));
        }
        Path p = root.resolve(file);
        Files.writeString(p, "edited\n", StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.TRUNCATE_EXISTING);
        Instant after = Files.getLastModifiedTime(jar()).toInstant().plusSeconds(1);
        Files.setLastModifiedTime(p, FileTime.from(after));
    }

    /** Runs {@code drover --version}; returns how many builds it started (0 or 1), after checking it ran. */
    private int run() throws Exception {
        long before = Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
        ProcessBuilder pb = new ProcessBuilder(root.resolve("drover").toString(), "--version")
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().put("PATH", dir.resolve("bin") + ":/usr/bin:/bin");
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("DROVER_CDS", "0");
        pb.environment().remove("DROVER_BUILD");
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("launcher ended").isTrue();
        assertThat(p.descendants().filter(ProcessHandle::isAlive).count()).as("processes left").isZero();
        assertThat(Files.readString(dir.resolve("out.txt"))).as("launcher output").endsWith("ran\n");
        assertThat(p.exitValue()).isZero();
        long after = Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
        return (int) (after - before);
    }

    private Path jar() {
        return root.resolve("framework/cli/target/drover-cli.jar");
    }

    private static void script(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
