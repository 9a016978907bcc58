package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code drover job dispatch} and {@code drover job periodic force} against a real agent in a child JVM: Nomad's
 * output lines, the child job listed by {@code job status}, and every refused dispatch as one line, exit 2.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class JobDispatchCliTest {
    @TempDir
    Path tmp;

    private AgentProcess agent;

    @AfterEach
    void stopAgent() throws Exception {
        if (agent != null) {
            agent.close();
            assertThat(agent.process().isAlive()).isFalse();
        }
    }

    @Test
    void dispatchPrintsNomadsLinesAndEveryBadInputIsOneLine() throws Exception {
        agent = AgentProcess.start(AgentTestConfig.write(tmp), tmp.resolve("agent.err"));
        String addr = agent.awaitAddress(Duration.ofSeconds(30));
        Path job = Files.writeString(tmp.resolve("render.hcl"), """
                job "render" {
                  type = "batch"
                  parameterized {
                    payload       = "optional"
                    meta_required = ["who"]
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                      dispatch_payload {
                        file = "in.txt"
                      }
                      config {
                        run_for = "10ms"
                      }
                    }
                  }
                }
                """);
        Path periodic = Files.writeString(tmp.resolve("tick.hcl"), """
                job "tick" {
                  type = "batch"
                  periodic {
                    cron = "@yearly"
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        CliRun parent = CliRun.of("job", "run", "-address", addr, job.toString());
        assertThat(parent.exitCode()).as(parent.err()).isZero();
        assertThat(parent.err()).contains("==> Parameterized job: dispatch it with drover job dispatch");
        CliRun scheduled = CliRun.of("job", "run", "-address", addr, periodic.toString());
        assertThat(scheduled.exitCode()).as(scheduled.err()).isZero();
        assertThat(scheduled.err()).containsPattern("Approximate next launch time: \\d{4}-01-01T00:00:00Z");
        CliRun embedded = CliRun.of("run", periodic.toString());
        assertThat(embedded.exitCode()).isEqualTo(2);
        assertThat(embedded.errorLines()).containsExactly("Error: " + periodic + ": job \"tick\": a periodic job runs "
                + "nothing itself; register it with an agent (drover job run) to launch its children");
        Path payload = Files.writeString(tmp.resolve("payload.txt"), "data");

        CliRun ok = CliRun.of("job", "dispatch", "-address", addr, "-meta", "who=ann", "render", payload.toString());
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out()).matches("(?s)Dispatched Job ID = render/dispatch-\\d{10}-[0-9a-f]{8}\n"
                + "Evaluation ID     = [0-9a-f]{8}\n");
        String child = ok.out().lines().findFirst().orElseThrow().substring("Dispatched Job ID = ".length());
        assertThat(CliRun.of("job", "status", "-address", addr).out()).contains(child);

        CliRun missing = CliRun.of("job", "dispatch", "-address", addr, "render");
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.errorLines()).containsExactly(
                "Error: Dispatch did not provide required meta keys: [who]");
        CliRun unknown = CliRun.of("job", "dispatch", "-address", addr, "-meta", "who=a", "-meta", "x=1", "render");
        assertThat(unknown.errorLines()).containsExactly(
                "Error: Dispatch request included unpermitted metadata keys: [x]");
        CliRun badMeta = CliRun.of("job", "dispatch", "-address", addr, "-meta", "novalue", "render");
        assertThat(badMeta.exitCode()).isEqualTo(2);
        assertThat(badMeta.errorLines()).containsExactly(
                "Error: Error parsing meta value: novalue (expected KEY=VALUE)");
        CliRun notParameterized = CliRun.of("job", "dispatch", "-address", addr, "tick");
        assertThat(notParameterized.errorLines()).containsExactly(
                "Error: Specified job \"tick\" is not a parameterized job");
        CliRun noFile = CliRun.of("job", "dispatch", "-address", addr, "-meta", "who=a", "render",
                tmp.resolve("nope").toString());
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.errorLines()).singleElement().asString().startsWith("Error: Error reading input data: ");
        for (CliRun r : new CliRun[] {missing, unknown, badMeta, notParameterized, noFile}) {
            assertThat(r.hasNoStackTrace()).isTrue();
        }

        CliRun force = CliRun.of("job", "periodic", "force", "-address", addr, "tick");
        assertThat(force.exitCode()).as(force.err()).isZero();
        assertThat(force.out()).startsWith("Force periodic successful\nEvaluation ID: ");
        assertThat(CliRun.of("job", "status", "-address", addr).out()).containsPattern("tick/periodic-\\d{10}");
        assertThat(CliRun.of("job", "periodic", "force", "-address", addr, "render").errorLines())
                .containsExactly("Error: can't force launch non-periodic job");
    }
}
