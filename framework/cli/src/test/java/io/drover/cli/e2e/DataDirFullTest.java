package io.drover.cli.e2e;

import static io.drover.cli.e2e.AgentApi.alloc;
import static io.drover.cli.e2e.AgentApi.events;
import static io.drover.cli.e2e.AgentApi.send;
import static io.drover.cli.e2e.AgentApi.state;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import java.net.http.HttpResponse;
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
 * A data_dir that becomes full, under a real agent child JVM: its data_dir is an 8 MiB tmpfs in a private mount
 * namespace ({@link PrivateTmpfs}), filled with a filler file while a mock task flaps (a steady stream of events)
 * and a raw_exec task prints. The store holds the changes and says so in one line, reads keep answering with the
 * durable state, changes get 503 (and {@code drover job run} prints that line), the raw_exec log thread drops
 * and counts; when the filler goes, everything catches up by itself. Then {@code kill -9} and a restart prove the
 * store is complete (every event a client saw is there) and clean (no torn tail), and a SIGTERM while the disk is
 * full exits 1 after a bounded wait, naming the changes it could not write. Skipped (assumption) where mounting
 * is not allowed; the store logic is covered without mounts by StoreDiskFaultTest in framework/core.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DataDirFullTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(30);
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

    private AgentProcess agent(Path config, String name) throws Exception {
        AgentProcess a = AgentProcess.start(fs.enter(), config, tmp.resolve(name + ".err"));
        agents.add(a);
        return a;
    }

    @Test
    void aFullDataDirHoldsChangesRefusesNewOnesAndCatchesUpWithNothingLost() throws Exception {
        Optional<PrivateTmpfs> mounted = PrivateTmpfs.mount(tmp.resolve("data"), "8m");
        Assumptions.assumeTrue(mounted.isPresent(), () -> "skipped: " + PrivateTmpfs.unavailable);
        fs = mounted.get();
        Path config = AgentTestConfig.writeWithRawExec(tmp);
        Path journal = tmp.resolve("data").resolve("state").resolve("journal-0000000001.log").toAbsolutePath();
        AgentProcess first = agent(config, "first");
        String addr = first.awaitAddress(START);
        String flap = runDetached(addr, AgentTestConfig.flapJob(tmp, "flap"));
        String ticker = runDetached(addr, tickerJob());
        Poll.until("the ticker runs", WAIT, () -> alloc(addr, ticker), a -> state(a, "tick").equals("running"));
        Path tickLog = fs.outside(tmp.resolve("data").resolve("alloc").resolve(ticker).resolve("alloc")
                .resolve("logs").resolve("tick.stdout.0").toAbsolutePath());
        Poll.until("the flapping task restarts", WAIT, () -> alloc(addr, flap), a -> events(a, "main").size() > 6);

        Path filler = fs.fill("filler");

        String stallLine = "state store: cannot write to " + journal + ": No space left on device; ";
        first.awaitStderr(stallLine, WAIT);
        assertThat(first.stderr()).contains("change(s) held in memory, retrying every 1 s");
        JsonNode held = alloc(addr, flap);
        CliRun refused = CliRun.of("job", "run", "-detach", "-address", addr, AgentTestConfig.flapJob(tmp, "other").toString());
        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.err().lines().toList()).singleElement().asString()
                .startsWith("Error: data_dir problem: state store cannot write to " + journal
                        + ": No space left on device; ")
                .contains("change(s) held in memory", "refuses changes");
        HttpResponse<String> stop = send("POST", addr + "/v1/allocation/" + flap + "/stop", "");
        assertThat(stop.statusCode()).isEqualTo(503);
        assertThat(JSON.readTree(stop.body()).path("error").asText()).startsWith("data_dir problem: ");
        assertThat(send("PUT", addr + "/v1/system/gc", "").statusCode()).isEqualTo(503);
        assertThat(send("GET", addr + "/v1/jobs", null).statusCode()).isEqualTo(200);
        assertThat(events(alloc(addr, flap), "main")).as("reads show the durable state only, frozen while held")
                .isEqualTo(events(held, "main"));
        first.awaitStderr("cannot write task output to ", WAIT);
        assertThat(first.process().isAlive()).isTrue();

        Files.delete(filler);

        first.awaitStderr("state store: caught up: ", WAIT);
        JsonNode caughtUp = Poll.until("held events published", WAIT, () -> alloc(addr, flap),
                a -> events(a, "main").size() > events(held, "main").size());
        assertThat(events(caughtUp, "main").subList(0, events(held, "main").size()))
                .isEqualTo(events(held, "main"));
        first.awaitStderr("task output written to ", WAIT);
        long logSize = Files.size(tickLog);
        Poll.until("the ticker's output is written again", WAIT, () -> Files.size(tickLog), n -> n > logSize);
        CliRun after = CliRun.of("job", "run", "-address", addr, AgentTestConfig.job(tmp, "after", "10ms").toString());
        assertThat(after.exitCode()).as(after.err()).isZero();
        assertThat(first.stderr().lines().filter(l -> l.contains("state store: cannot write to"))).hasSize(1);
        assertThat(first.stderr()).doesNotContain("\tat ");

        JsonNode seen = alloc(addr, flap);
        first.kill();
        AgentProcess second = agent(config, "second");
        String addr2 = second.awaitAddress(START);
        JsonNode restored = alloc(addr2, flap);
        assertThat(events(restored, "main").subList(0, events(seen, "main").size()))
                .as("every event a client saw is on disk").isEqualTo(events(seen, "main"));
        assertThat(second.stderr()).doesNotContain("torn", "corrupt");
        Poll.until("the ticker is re-attached", WAIT, () -> alloc(addr2, ticker), a -> state(a, "tick").equals("running"));

        // SIGTERM while the disk is full: a bounded wait, then exit 1 naming what was not written.
        String flap2 = runDetached(addr2, AgentTestConfig.flapJob(tmp, "flap2"));
        Poll.until("the second flapping task restarts", WAIT, () -> alloc(addr2, flap2), a -> events(a, "main").size() > 6);
        filler = fs.fill("filler");
        second.awaitStderr(stallLine, WAIT);
        JsonNode lastSeen = alloc(addr2, flap2);
        long t0 = System.nanoTime();
        second.process().destroy();
        assertThat(second.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("the store's bounded wait (10 s) and some")
                .isLessThan(Duration.ofSeconds(25));
        assertThat(second.process().exitValue()).isEqualTo(1);
        assertThat(second.stderr()).containsPattern("Agent stopped; \\d+ change\\(s\\) could not be written to "
                + java.util.regex.Pattern.quote(journal.getParent().toString())
                + " \\(data_dir refused them\\) and are lost; the state on disk is consistent; \\d+ task\\(s\\) left "
                + "running for the next agent to re-attach");
        Files.delete(filler);
        AgentProcess third = agent(config, "third");
        String addr3 = third.awaitAddress(START);
        assertThat(third.stderr()).doesNotContain("torn", "corrupt");
        JsonNode reopened = alloc(addr3, flap2);
        assertThat(events(reopened, "main").subList(0, events(lastSeen, "main").size()))
                .isEqualTo(events(lastSeen, "main"));

        assertThat(send("POST", addr3 + "/v1/allocation/" + ticker + "/stop", "").statusCode()).isEqualTo(200);
        Poll.until("the ticker is stopped", WAIT, () -> alloc(addr3, ticker), a -> state(a, "tick").equals("dead"));
    }

    // ---- jobs ----

    private Path tickerJob() throws Exception {
        return Files.writeString(tmp.resolve("ticker.hcl"), """
                job "ticker" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    task "tick" {
                      driver       = "raw_exec"
                      kill_timeout = "1s"
                      config {
                        command = "/bin/sh"
                        args    = ["-c", "while :; do echo tick-tick-tick-tick-tick; sleep 0.02; done"]
                      }
                    }
                  }
                }
                """);
    }

    // ---- helpers ----

    private static String runDetached(String addr, Path job) {
        CliRun run = CliRun.of("job", "run", "-detach", "-address", addr, job.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        return run.out().strip();
    }
}
