package io.drover.core.driver;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.driver.testdrivers.FakeDriver;
import io.drover.core.driver.testdrivers.OtherDriver;
import io.drover.core.testing.ZipBomb;
import io.drover.driver.tck.VirtualTimers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 9, replayed on the registry with real JARs: a zip bomb (2 MB that inflate to 2.2 GB in
 * {@code META-INF/extensions.idx}, which PF4J read as one line and ended the JVM with an OutOfMemoryError), the
 * same bomb lying about its size, a JAR others may write, and one owned by {@code nobody} (the tests run as root,
 * as the agent does) are each one problem line naming the file; the good JAR beside them loads.
 */
class PluginTrustTest {
    private static final long ATTACK_SIZE = 2_200L << 20;

    @TempDir
    Path dir;

    private final VirtualTimers timers = new VirtualTimers(Instant.parse("2024-01-01T00:00:00Z"));
    private DriverRegistry registry;

    @AfterEach
    void close() {
        if (registry != null) {
            registry.close();
        }
    }

    private DriverRegistry load() {
        registry = DriverRegistry.load(dir, Map.of(), timers);
        return registry;
    }

    @Test
    void theAttackRunsZipBombIsSkippedWithOneLineAndTheRestLoads() throws Exception {
        Path bomb = ZipBomb.plugin("bomb").inflatingTo(ATTACK_SIZE).writeTo(dir.resolve("a-bomb.jar"));
        assertThat(Files.size(bomb)).as("a small JAR").isLessThan(3L << 20);
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));

        load();

        assertThat(registry.problems()).singleElement().asString()
                .startsWith(bomb + ": too large to load: META-INF/extensions.idx declares 2200 MiB once inflated")
                .endsWith("; skipped");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aBombThatLiesAboutItsSizeIsReadWithALimit() {
        // declares 100 bytes: only reading it with a limit shows what it is
        Path bomb = ZipBomb.plugin("bomb").inflatingTo(ATTACK_SIZE).declaring(100).writeTo(dir.resolve("a.jar"));
        Path manifestBomb = ZipBomb.plugin("mf").entry("META-INF/services/io.drover.driver.api.TaskDriver")
                .inflatingTo(64L << 20).declaring(10).writeTo(dir.resolve("b.jar"));
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                bomb + ": too large to load: META-INF/extensions.idx inflates to more than 1 MiB (it declares 100 "
                        + "bytes); skipped",
                manifestBomb + ": too large to load: META-INF/services/io.drover.driver.api.TaskDriver inflates to "
                        + "more than 1 MiB (it declares 10 bytes); skipped");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aJarOthersCanWriteIsRefused() throws Exception {
        Path open = TestDriverJar.plugin("other-plugin").extension(OtherDriver.class).writeTo(dir.resolve("o.jar"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-rw-rw-"));
        Path group = TestDriverJar.plugin("g").extension(OtherDriver.class).writeTo(dir.resolve("p.jar"));
        Files.setPosixFilePermissions(group, PosixFilePermissions.fromString("rw-rw-r--"));
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));

        load();

        assertThat(registry.problems()).containsExactly(
                open + ": writable by other users (rw-rw-rw-): another user could change the code the agent "
                        + "would run; skipped",
                group + ": writable by other users (rw-rw-r--): another user could change the code the agent "
                        + "would run; skipped");
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void aJarOwnedByAnotherUserIsRefused() throws Exception {
        Path theirs = TestDriverJar.plugin("other-plugin").extension(OtherDriver.class)
                .writeTo(dir.resolve("theirs.jar"));
        Files.setAttribute(theirs, "unix:uid", 65534);
        // a link to it is judged by the file it points to
        Path link = Files.createSymbolicLink(dir.resolve("link.jar"), theirs);
        TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));

        load();

        String who = "owned by user nobody (uid 65534), not by the agent's user (uid 0): another user could "
                + "change the code the agent would run; skipped";
        assertThat(registry.problems()).containsExactly(link + ": " + who, theirs + ": " + who);
        assertThat(registry.names()).containsExactly("fake");
    }

    @Test
    void theRulesLeaveOrdinaryJarsAlone() throws Exception {
        Path fake = TestDriverJar.plugin("fake-plugin").extension(FakeDriver.class).writeTo(dir.resolve("fake.jar"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fake))).isEqualTo("rw-r--r--");

        load();

        assertThat(registry.problems()).isEmpty();
        assertThat(registry.names()).containsExactly("fake");
    }
}
