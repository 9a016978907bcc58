package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.service.ServiceRegistration;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.TaskLifeState;
import io.drover.core.store.JournalStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service registry across an agent restart (an engine on the same store, virtual time): nothing of it is
 * persisted, a re-attached task is registered again, and a task that did not survive is not registered at all.
 */
class ServiceRestoreTest {
    @TempDir
    Path dataDir;

    static final String JOB = """
            job "svc" {
              group "g" {
                service {
                  provider = "nomad"
                  name = "grp"
                  port = 9000
                }
                task "t" {
                  driver = "mock"
                  config {
                    run_for = "1h"
                  }
                  service {
                    provider = "nomad"
                    name = "web"
                    port = 8080
                    tags = ["${NOMAD_TASK_NAME}"]
                  }
                }
              }
            }
            """;

    private static Job job() throws Exception {
        return JobFileParser.parse("svc.hcl", JOB.getBytes(StandardCharsets.UTF_8));
    }

    /** Starts the job on a first engine until its task runs and its services are registered; the engine goes. */
    private String firstAgent(SurvivingDriver driver) throws Exception {
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine first = new VirtualEngine(dataDir, driver, store);
            String id = first.engine.submit(job()).get(0).id();
            first.runUntil(() -> first.engine.services().all().size() == 2, Duration.ofMinutes(1));
            ServiceRegistration web = first.engine.services().named("default", "web").get(0);
            assertThat(web.port()).isEqualTo(8080);
            assertThat(web.address()).isEqualTo("127.0.0.1");
            assertThat(web.tags()).containsExactly("t");
            assertThat(first.engine.allocation(id).orElseThrow().taskStates().get("t").state())
                    .isEqualTo(TaskLifeState.RUNNING);
            first.engine.close(); // the agent goes away; the task keeps running
            return id;
        }
    }

    @Test
    void aReattachedTaskIsRegisteredAgainAndRemovedAtItsStop() throws Exception {
        SurvivingDriver driver = new SurvivingDriver();
        String id = firstAgent(driver);
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine second = new VirtualEngine(dataDir, driver, store);
            assertThat(second.engine.services().all()).as("nothing persisted").isEmpty();
            assertThat(second.engine.restore()).isEqualTo(1);
            second.runUntil(() -> second.engine.services().all().size() == 2, Duration.ofMinutes(1));
            assertThat(second.engine.services().named("default", "web").get(0).id())
                    .isEqualTo("_nomad-task-" + id + "-t-web-8080");
            second.engine.stop(id);
            second.runUntil(() -> second.engine.terminal(id).isDone(), Duration.ofMinutes(1));
            assertThat(second.engine.services().all()).isEmpty();
        }
    }

    @Test
    void aTaskGoneDuringTheRestartIsNotRegistered() throws Exception {
        String id = firstAgent(new SurvivingDriver());
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            VirtualEngine second = new VirtualEngine(dataDir, new SurvivingDriver(), store); // knows no run
            java.util.List<Integer> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            second.engine.addListener(a -> seen.add(second.engine.services().all().size()));
            second.engine.restore();
            second.runUntil(() -> second.engine.terminal(id).isDone(), Duration.ofMinutes(1));
            assertThat(second.engine.services().all()).isEmpty();
            assertThat(seen).as("registrations seen by each snapshot after the restart").isNotEmpty()
                    .containsOnly(0);
        }
    }
}
