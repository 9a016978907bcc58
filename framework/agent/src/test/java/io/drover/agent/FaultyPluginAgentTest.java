package io.drover.agent;

import static io.drover.agent.MockJobs.NO_RESTARTS;
import static io.drover.agent.MockJobs.poststop;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.agent.faulty.FaultyDriver;
import io.drover.core.config.ClientConfig;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.LogConfig;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.testing.PluginJar;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6, "a driver plugin that throws, hangs in start, or dies mid-task", through a real agent that loads a
 * third party's broken plugin JAR ({@code faulty}, built here) from its plugin dir next to the mock plugin. One
 * job per fault mode, each with a mock poststop task, beside healthy mock jobs: the agent stays up and serves its
 * API, healthy allocations complete — also after more blocked starts than the engine has threads — and each faulty
 * task gets its event and ends dead and failed; its poststop task runs. docs/faults.md.
 */
class FaultyPluginAgentTest {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(1);
    private static final int ENGINE_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

    @TempDir
    Path tmp;

    private static Job faultyJob(String mode, int count) {
        Task faulty = new Task("t", "faulty", Map.of("mode", mode), Map.of(), false, null, Duration.ofSeconds(1),
                "SIGINT", Duration.ZERO, null, LogConfig.DEFAULT, NO_RESTARTS, 0);
        TaskGroup group = new TaskGroup("g", count, NO_RESTARTS, null,
                List.of(faulty, poststop("cleanup", "run_for", "10ms")), 0);
        String id = mode.replace('_', '-');
        return new Job(id, id, JobType.BATCH, List.of("dc1"), List.of(group), "test");
    }

    @Test
    void aBrokenPluginFailsItsOwnTasksOnlyAndTheAgentGoesOn() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwx------"));
        // a third party's JAR: its own id and provider, the classes of the faulty package, the driver as extension
        PluginJar.plugin("faulty-plugin").attribute("Plugin-Version", "6.6.6")
                .attribute("Plugin-Provider", "A Third Party").classesOf(FaultyDriver.class)
                .extension(FaultyDriver.class).writeTo(plugins.resolve("faulty-plugin.jar"));
        ClientConfig client = new ClientConfig(Duration.ofMinutes(1), 1000, 100, 100, 2,
                io.drover.core.config.GcKillPolicy.PRESERVE_STATES, Duration.ofSeconds(30), Duration.ofHours(24),
                START_TIMEOUT);
        try (TestAgent api = TestAgent.start(tmp, null, null, client)) {
            assertThat(api.agent.pluginProblems()).isEmpty();
            assertThat(api.agent.engine().allocation("x")).isEmpty();

            Map<String, String> allocOf = new LinkedHashMap<>();
            for (String mode : List.of("throw_start", "never_start", "die_mid_task", "throw_on_signal")) {
                allocOf.put(mode, api.agent.jobs().register(faultyJob(mode, 1)).placed().get(0).id());
            }
            String signalAlloc = allocOf.get("throw_on_signal");
            Await.until("the throw_on_signal task runs",
                    () -> api.alloc(signalAlloc).taskStates().get("t").state() == TaskLifeState.RUNNING);

            // more blocked starts than the engine has threads: each holds a thread of the faulty driver's own pool
            int blocked = ENGINE_THREADS + 1;
            List<String> blockedAllocs = api.agent.jobs().register(faultyJob("block_start", blocked)).placed()
                    .stream().map(AllocationState::id).toList();
            Await.until("plugin threads blocked in start", () -> threadsBlockedInPlugin().size()
                    >= Math.min(blocked, ENGINE_THREADS));
            assertThat(threadsBlockedInPlugin()).as("no engine thread is held by the plugin")
                    .allMatch(name -> name.startsWith("drover-driver-faulty-"));

            String healthy = api.agent.jobs().register(MockJobs.batch("healthy", 1,
                    MockJobs.task("web", "run_for", "50ms"), poststop("cleanup", "run_for", "10ms"))).placed().get(0)
                    .id();
            Await.until("the healthy allocation completes", () -> api.alloc(healthy).clientStatus()
                    == ClientStatus.COMPLETE);
            assertThat(api.get("/v1/agent/health").status()).isEqualTo(200);

            assertThat(api.call("POST", "/v1/allocation/" + signalAlloc + "/stop", null).status()).isEqualTo(200);

            List<String> faulty = new ArrayList<>(allocOf.values());
            faulty.addAll(blockedAllocs);
            for (String id : faulty) {
                Await.until("allocation " + id + " ends", Duration.ofSeconds(30),
                        () -> api.alloc(id).clientStatus() == ClientStatus.FAILED);
            }

            assertFaulty(api.alloc(allocOf.get("throw_start")), "faulty plugin: start exploded", 0, 500);
            assertFaulty(api.alloc(allocOf.get("never_start")),
                    "did not finish starting the task within driver_start_timeout (1s)", 1000, 1500);
            assertFaulty(api.alloc(allocOf.get("die_mid_task")),
                    "lost track of the task: faulty plugin: watcher thread died", 200, 700);
            for (String id : blockedAllocs) {
                assertFaulty(api.alloc(id), "did not finish starting the task within driver_start_timeout (1s)",
                        1000, 1500);
            }
            AllocationState stopped = api.alloc(signalAlloc);
            assertFaulty(stopped, "lost track of the task: driver \"faulty\" did not report its end within 5s",
                    5000, 30_000);
            assertThat(stopped.taskStates().get("t").events()).extracting(TaskEvent::displayMessage)
                    .contains("failed to kill task: faulty plugin: signal exploded");

            // still serving, and a later healthy job still runs to its end
            String later = api.agent.jobs().register(MockJobs.batch("later", 1,
                    MockJobs.task("web", "run_for", "20ms"))).placed().get(0).id();
            Await.until("the later healthy allocation completes", () -> api.alloc(later).clientStatus()
                    == ClientStatus.COMPLETE);
            assertThat(api.get("/v1/job/block-start").status()).isEqualTo(200);
            assertThat(api.agent.storeFailure()).isEmpty();
        }
        Await.until("the plugin's blocked threads are released at shutdown", () -> threadsBlockedInPlugin().isEmpty());
        assertThat(ProcessHandle.current().children().toList()).as("no process left").isEmpty();
    }

    /**
     * The task failed with a Driver Failure containing {@code message}, between {@code minMs} and {@code maxMs}
     * after its Task Setup, and the poststop task ran.
     */
    private static void assertFaulty(AllocationState a, String message, long minMs, long maxMs) {
        TaskState t = a.taskStates().get("t");
        assertThat(t.state()).as(a.jobId()).isEqualTo(TaskLifeState.DEAD);
        assertThat(t.failed()).as(a.jobId()).isTrue();
        TaskEvent setup = t.events().stream().filter(e -> e.type() == TaskEventType.TASK_SETUP).findFirst()
                .orElseThrow();
        TaskEvent failure = t.events().stream().filter(e -> e.type() == TaskEventType.DRIVER_FAILURE).findFirst()
                .orElseThrow(() -> new AssertionError(a.jobId() + ": no Driver Failure in " + t.events()));
        assertThat(failure.displayMessage()).as(a.jobId()).contains(message);
        assertThat((failure.time() - setup.time()) / 1_000_000).as(a.jobId() + " failure after setup, ms")
                .isBetween(minMs, maxMs);
        assertThat(a.taskStates().get("cleanup").events()).as(a.jobId() + " poststop ran")
                .extracting(TaskEvent::type).contains(TaskEventType.TERMINATED);
    }

    /** Names of threads now inside the faulty plugin's start. */
    private static List<String> threadsBlockedInPlugin() {
        List<String> names = new ArrayList<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().equals("io.drover.agent.faulty.FaultyDriver")
                        && frame.getMethodName().equals("start")) {
                    names.add(thread.getName());
                    break;
                }
            }
        });
        return names;
    }
}
