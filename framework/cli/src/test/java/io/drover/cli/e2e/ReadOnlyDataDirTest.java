package io.drover.cli.e2e;

import static io.drover.cli.e2e.AgentApi.alloc;
import static io.drover.cli.e2e.AgentApi.events;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data_dir whose file system turns read-only under a running agent, as ext4 does after an error with
 * {@code errors=remount-ro}: an ext4 image loop-mounted in a private mount namespace, made read-only through
 * {@code /sys/fs/ext4/<dev>/trigger_fs_error}. Linux cannot switch it back while mounted, so the operator's path
 * is the one tested: the agent stays up (503, one line), a SIGTERM exits 1 after the bounded wait, then the image
 * is checked ({@code e2fsck}) and mounted again, and the next agent opens a clean store with every event a client
 * saw. Opt-in ({@code -Ddrover.faults.readonly=true}): it takes a loop device, a machine-wide resource.
 */
@EnabledIfSystemProperty(named = "drover.faults.readonly", matches = "true")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReadOnlyDataDirTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration START = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();
    private final List<PrivateTmpfs> mounts = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (AgentProcess a : agents) {
            a.close();
        }
        for (PrivateTmpfs m : mounts) {
            m.close();
        }
        assertThat(NoProcessLeft.under(tmp.resolve("data"))).isEmpty();
    }

    @Test
    void aDataDirTurnedReadOnlyKeepsTheAgentUpAndTheStoreCleanForTheNextAgent() throws Exception {
        Path image = tmp.resolve("data.img");
        try (var f = new java.io.RandomAccessFile(image.toFile(), "rw")) {
            f.setLength(64L << 20);
        }
        Process mkfs = new ProcessBuilder("mkfs.ext4", "-q", "-F", image.toString()).redirectErrorStream(true).start();
        Assumptions.assumeTrue(mkfs.waitFor(60, TimeUnit.SECONDS) && mkfs.exitValue() == 0, "mkfs.ext4 unavailable");
        Path data = tmp.resolve("data");
        PrivateTmpfs fs = mount(data, image);
        Path config = AgentTestConfig.write(tmp);
        Path journal = data.resolve("state").resolve("journal-0000000001.log").toAbsolutePath();
        AgentProcess first = agent(fs, config, "first");
        String addr = first.awaitAddress(START);
        String flap = CliRun.of("job", "run", "-detach", "-address", addr, AgentTestConfig.flapJob(tmp, "flap").toString()).out().strip();
        Poll.until("events of " + flap, WAIT, () -> events(alloc(addr, flap), "main").size(), n -> n > 6);

        String dev = fs.run("findmnt", "-n", "-o", "SOURCE", data.toString()).strip();
        Files.writeString(Path.of("/sys/fs/ext4", Path.of(dev).getFileName().toString(), "trigger_fs_error"),
                "drover fault test");

        first.awaitStderr("state store: cannot write to " + journal + ": ", WAIT);
        JsonNode seen = alloc(addr, flap);
        CliRun refused = CliRun.of("job", "run", "-detach", "-address", addr, AgentTestConfig.flapJob(tmp, "flap").toString());
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err().lines().toList()).singleElement().asString()
                .startsWith("Error: data_dir problem: state store cannot write to " + journal + ": ");
        assertThat(events(alloc(addr, flap), "main")).isEqualTo(events(seen, "main"));

        first.process().destroy();
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.process().exitValue()).isEqualTo(1);
        assertThat(first.stderr()).contains("could not be written to", "the state on disk is consistent");
        fs.close();
        awaitLoopFreed(image);
        Process fsck = new ProcessBuilder("e2fsck", "-f", "-y", image.toString()).redirectErrorStream(true).start();
        fsck.getInputStream().readAllBytes();
        assertThat(fsck.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(fsck.exitValue()).as("e2fsck: 0 clean, 1 errors corrected").isLessThanOrEqualTo(1);

        PrivateTmpfs again = mount(data, image);
        AgentProcess second = agent(again, config, "second");
        String addr2 = second.awaitAddress(START);
        assertThat(second.stderr()).doesNotContain("corrupt");
        List<JsonNode> after = events(alloc(addr2, flap), "main");
        assertThat(after.subList(0, events(seen, "main").size())).as("every event a client saw")
                .isEqualTo(events(seen, "main"));
    }

    private PrivateTmpfs mount(Path data, Path image) throws Exception {
        Optional<PrivateTmpfs> m = PrivateTmpfs.mountExt4(data, image);
        Assumptions.assumeTrue(m.isPresent(), () -> "skipped: " + PrivateTmpfs.unavailable);
        mounts.add(m.get());
        return m.get();
    }

    private AgentProcess agent(PrivateTmpfs fs, Path config, String name) throws Exception {
        AgentProcess a = AgentProcess.start(fs.enter(), config, tmp.resolve(name + ".err"));
        agents.add(a);
        return a;
    }

    private static void awaitLoopFreed(Path image) throws Exception {
        Poll.until("loop device of " + image + " freed", Duration.ofSeconds(20), () -> {
            Process p = new ProcessBuilder("losetup", "-j", image.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            return out;
        }, String::isBlank);
    }
}
