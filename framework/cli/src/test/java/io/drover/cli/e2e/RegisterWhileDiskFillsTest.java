package io.drover.cli.e2e;

import static io.drover.cli.e2e.AgentApi.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 16: a {@code drover job run} whose registration is in flight when data_dir fills (the store
 * had not failed yet, so the API let the write in) waited for durability, printed {@code request timed out} after
 * 30 s, and the job was placed later anyway, so the user's retry ran it twice. Replayed on a real agent child JVM
 * whose data_dir is a private 8 MiB tmpfs ({@link PrivateTmpfs}, as DataDirFullTest): the answer is the store's
 * 503 line at once, and running the same job again after the disk recovers places nothing more.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RegisterWhileDiskFillsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();
    private PrivateTmpfs fs;

    @AfterEach
    void cleanUp() throws Exception {
        for (AgentProcess a : agents) {
            a.close();
        }
        if (fs != null) {
            fs.close();
        }
        assertThat(NoProcessLeft.under(tmp.resolve("data"))).isEmpty();
    }

    @Test
    void aRegistrationCaughtByAFullDiskIsAnswered503AtOnceAndItsRetryPlacesNothingTwice() throws Exception {
        Optional<PrivateTmpfs> mounted = PrivateTmpfs.mount(tmp.resolve("data"), "8m");
        Assumptions.assumeTrue(mounted.isPresent(), () -> "skipped: " + PrivateTmpfs.unavailable);
        fs = mounted.get();
        AgentProcess agent = AgentProcess.start(fs.enter(), AgentTestConfig.write(tmp), tmp.resolve("agent.err"));
        agents.add(agent);
        String addr = agent.awaitAddress(WAIT);
        Path job = bigJob();

        // the store is idle, so nothing has failed yet: the API lets the registration in, and its write (the
        // allocation records its job: 64 KiB, more than the journal's last page can still take) fails
        Path filler = fs.fill("filler");
        long t0 = System.nanoTime();
        CliRun first = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        Duration took = Duration.ofNanos(System.nanoTime() - t0);
        assertThat(first.exitCode()).as(first.err()).isEqualTo(1);
        assertThat(first.err().lines().toList()).singleElement().asString()
                .startsWith("Error: data_dir problem: state store cannot write to ")
                .contains("No space left on device", "job held is held in memory and runs once the disk takes writes",
                        "running the same job again does not place it twice");
        assertThat(took).as("answered at once, not after a timeout").isLessThan(Duration.ofSeconds(10));

        Files.delete(filler);
        agent.awaitStderr("state store: caught up: ", WAIT);
        JsonNode placed = Poll.until("the held job's allocation is listed", WAIT, () -> allocations(addr),
                a -> a.isArray() && a.size() == 1);
        String id = placed.get(0).path("ID").asText();

        CliRun retry = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        assertThat(retry.exitCode()).as(retry.err()).isZero();
        assertThat(retry.out().strip()).isEqualTo(id);
        assertThat(allocations(addr)).as("the retry placed nothing more").hasSize(1);
        JsonNode read = JSON.readTree(send("GET", addr + "/v1/job/held", null).body());
        assertThat(read.path("Version").asInt()).isZero();
        Poll.until("the held job completes", WAIT, () -> AgentApi.alloc(addr, id),
                a -> a.path("ClientStatus").asText().equals("complete"));
    }

    /** A batch job of one mock task whose config carries 64 KiB (it prints it once). */
    private Path bigJob() throws Exception {
        return Files.writeString(tmp.resolve("held.hcl"), """
                job "held" {
                  type = "batch"
                  group "g" {
                    task "main" {
                      driver = "mock"
                      config {
                        run_for       = "10ms"
                        stdout_string = "%s"
                      }
                    }
                  }
                }
                """.formatted("x".repeat(64 << 10)));
    }

    private static JsonNode allocations(String addr) throws Exception {
        return JSON.readTree(send("GET", addr + "/v1/job/held/allocations", null).body());
    }
}
