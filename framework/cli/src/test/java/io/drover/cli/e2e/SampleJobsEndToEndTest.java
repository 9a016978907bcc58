package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every job in sample-jobs/ run through the CLI in-process, with the mock plugin JAR the build copies into
 * target/test-plugins (system property {@code drover.test.plugins}; run with {@code mvn verify}). The assertions
 * read the allocation JSON and check the lifecycle order of the contract (§2) on the events' times; "not after"
 * comparisons, because two events caused one by the other may share a clock tick.
 */
class SampleJobsEndToEndTest {

    @TempDir
    Path dir;
    private Path config;

    @BeforeEach
    void writeConfig() throws Exception {
        config = TestConfig.write(dir);
    }

    @Test
    void lifecycleHclRunsEveryHookInOrder() throws Exception {
        CliRun run = runJson("lifecycle.hcl");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertLifecycleOrder(Allocs.single(run));
    }

    @Test
    void lifecycleJsonIsTheTwinOfLifecycleHcl() throws Exception {
        CliRun run = runJson("lifecycle.json");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertLifecycleOrder(Allocs.single(run));
    }

    @Test
    void lifecycleHclPrintsNomadStyleTextByDefault() {
        CliRun run = CliRun.of("run", "-config", config.toString(), TestConfig.SAMPLES.resolve("lifecycle.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.out())
                .contains("Client Status       = complete")
                .contains("Task \"init\" (prestart) is \"dead\"")
                .contains("Task \"proxy\" (prestart sidecar) is \"dead\"")
                .contains("Task \"web\" is \"dead\"")
                .contains("Task \"notify\" (poststart) is \"dead\"")
                .contains("Task \"cleanup\" (poststop) is \"dead\"")
                .contains("Recent Events:")
                .doesNotContain("is \"\"");
        assertThat(run.err()).as("live status lines").contains("lifecycle.app[0]");
    }

    @Test
    void restartHclRestartsTwiceThenFailsTheAllocation() throws Exception {
        CliRun run = runJson("restart.hcl");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.FAILED);
        JsonNode alloc = Allocs.single(run);
        assertThat(alloc.get("ClientStatus").asText()).isEqualTo("failed");
        JsonNode task = alloc.get("TaskStates").get("fails");
        assertThat(task.get("State").asText()).isEqualTo("dead");
        assertThat(task.get("Failed").asBoolean()).isTrue();
        assertThat(task.get("Restarts").asInt()).isEqualTo(2);
        assertThat(Allocs.count(alloc, "fails", "Started")).isEqualTo(3);
        assertThat(Allocs.count(alloc, "fails", "Restarting")).isEqualTo(2);
        assertThat(Allocs.count(alloc, "fails", "Not Restarting")).isEqualTo(1);
    }

    @Test
    void leaderHclStopsTheOtherTasksWhenTheLeaderDies() throws Exception {
        CliRun run = runJson("leader.hcl");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        Allocs.assertAllDead(alloc);
        long leaderDone = Allocs.first(alloc, "leader", "Terminated");
        long workerKilling = Allocs.first(alloc, "worker", "Killing");
        long sidecarKilling = Allocs.first(alloc, "sidecar", "Killing");
        assertThat(workerKilling).as("worker stopped after the leader died").isGreaterThanOrEqualTo(leaderDone);
        assertThat(sidecarKilling).as("sidecar stopped after the other main task").isGreaterThanOrEqualTo(workerKilling);
        assertThat(alloc.get("TaskStates").get("worker").get("Failed").asBoolean()).isFalse();
    }

    @Test
    void jsonOutputIsAnArrayWithNomadsFieldNames() throws Exception {
        CliRun run = runJson("lifecycle.hcl");

        JsonNode json = new ObjectMapper().readTree(run.out());
        assertThat(json.isArray()).isTrue();
        JsonNode alloc = json.get(0);
        assertThat(alloc.get("ID").asText()).isNotBlank();
        assertThat(alloc.get("JobID").asText()).isEqualTo("lifecycle");
        assertThat(alloc.get("TaskGroup").asText()).isEqualTo("app");
        assertThat(alloc.get("TaskStates").get("cleanup").get("State").asText()).isEqualTo("dead");
    }

    @Test
    void aBadJobFileIsRefusedInOneLineNamingTheFile() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.hcl"), "job \"broken\" {\n  group \"g\" {\n");

        CliRun run = CliRun.of("run", "-config", config.toString(), bad.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).singleElement().asString().contains("bad.hcl");
        assertThat(run.hasNoStackTrace()).as(run.err()).isTrue();
        assertThat(run.out()).isEmpty();
    }

    @Test
    void everyProblemOfABadJobFileIsReportedOnItsOwnLine() throws Exception {
        Path bad = Files.writeString(dir.resolve("two-bad-tasks.hcl"), """
                job "j" {
                  group "g1" {
                    task "../x" {
                      driver = "mock"
                    }
                  }
                  group "g2" {
                    task "/tmp/y" {
                      driver = "mock"
                    }
                  }
                }
                """);

        CliRun run = CliRun.of("run", "-config", config.toString(), bad.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).satisfiesExactly(
                l -> assertThat(l).startsWith("Error: " + bad + ":3: job \"j\" > group \"g1\" > task \"../x\": "),
                l -> assertThat(l).startsWith("Error: " + bad + ":8: job \"j\" > group \"g2\" > task \"/tmp/y\": "));
        assertThat(run.out()).isEmpty(); // nothing ran
    }

    @Test
    void nothingRunsWhenOneOfSeveralJobFilesIsBad() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"Job\": ");

        CliRun run = CliRun.of("run", "-config", config.toString(), TestConfig.SAMPLES.resolve("lifecycle.hcl").toString(),
                bad.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).singleElement().asString().contains("bad.json");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void anUnknownDriverIsRefused() throws Exception {
        Path job = Files.writeString(dir.resolve("unknown-driver.hcl"), """
                job "nope" {
                  type = "batch"
                  group "g" {
                    task "t" {
                      driver = "no_such_driver"
                    }
                  }
                }
                """);

        CliRun run = CliRun.of("run", "-config", config.toString(), job.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).singleElement().asString().contains("no_such_driver");
        assertThat(run.hasNoStackTrace()).as(run.err()).isTrue();
    }

    @Test
    void aMissingJobFileIsRefused() {
        CliRun run = CliRun.of("run", "-config", config.toString(), dir.resolve("missing.hcl").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).singleElement().asString().contains("missing.hcl").contains("no such file");
    }

    @Test
    void pluginStatusListsTheMockDriverAsHealthy() {
        CliRun run = CliRun.of("plugin", "status", "-config", config.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        assertThat(run.out()).contains("mock").contains("healthy");
    }

    private CliRun runJson(String sample) {
        return CliRun.of("run", "-json", "-config", config.toString(), TestConfig.SAMPLES.resolve(sample).toString());
    }

    /** Contract §2 on lifecycle.hcl and its JSON twin. */
    private static void assertLifecycleOrder(JsonNode alloc) {
        assertThat(alloc.get("ClientStatus").asText()).isEqualTo("complete");
        Allocs.assertAllDead(alloc);
        long initDone = Allocs.first(alloc, "init", "Terminated");
        long webStarted = Allocs.first(alloc, "web", "Started");
        long webDone = Allocs.first(alloc, "web", "Terminated");
        assertThat(initDone).as("init finishes before web starts").isLessThanOrEqualTo(webStarted);
        assertThat(Allocs.first(alloc, "proxy", "Started")).as("sidecar starts before web")
                .isLessThanOrEqualTo(webStarted);
        assertThat(Allocs.first(alloc, "notify", "Started")).as("notify starts after web")
                .isGreaterThanOrEqualTo(webStarted);
        assertThat(Allocs.first(alloc, "proxy", "Killing")).as("proxy stopped after web is done")
                .isGreaterThanOrEqualTo(webDone);
        assertThat(Allocs.first(alloc, "cleanup", "Started")).as("cleanup starts after web is done")
                .isGreaterThanOrEqualTo(webDone);
        assertThat(Allocs.first(alloc, "cleanup", "Started")).as("cleanup starts after the sidecar is stopped")
                .isGreaterThanOrEqualTo(Allocs.first(alloc, "proxy", "Killing"));
        for (String task : new String[] {"init", "proxy", "web", "notify", "cleanup"}) {
            assertThat(alloc.get("TaskStates").get(task).get("Failed").asBoolean()).as(task + " failed").isFalse();
        }
    }
}
