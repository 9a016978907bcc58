package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static io.drover.core.engine.VirtualEngine.first;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.JobType;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The allocation lifecycle (contract §2) with the mock driver under a virtual clock: exact times, no sleeps. */
class LifecycleTest {
    @TempDir
    Path dataDir;

    private VirtualEngine engine() {
        return new VirtualEngine(dataDir, new MockDriver());
    }

    @Test
    void prestartThenMainThenPoststartThenStopThenPoststop() {
        AllocationState a = engine().run(TestJobs.batch(
                task("init").prestart().runFor("50ms"),
                task("proxy").prestartSidecar().runFor("1h"),
                task("web").runFor("150ms"),
                task("notify").poststart().runFor("20ms"),
                task("cleanup").poststop().runFor("20ms")));

        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(at(a, "init", TaskEventType.STARTED)).isZero();
        assertThat(at(a, "proxy", TaskEventType.STARTED)).isZero();
        assertThat(at(a, "init", TaskEventType.TERMINATED)).isEqualTo(50);
        assertThat(at(a, "web", TaskEventType.STARTED)).isEqualTo(50);
        assertThat(at(a, "notify", TaskEventType.STARTED)).isEqualTo(50);
        assertThat(at(a, "web", TaskEventType.TERMINATED)).isEqualTo(200);
        assertThat(at(a, "proxy", TaskEventType.MAIN_DEAD)).isEqualTo(200);
        assertThat(at(a, "proxy", TaskEventType.KILLING)).isEqualTo(200);
        assertThat(at(a, "proxy", TaskEventType.KILLED)).isEqualTo(200);
        assertThat(at(a, "cleanup", TaskEventType.STARTED)).isEqualTo(200);
        assertThat(at(a, "cleanup", TaskEventType.TERMINATED)).isEqualTo(220);
        assertThat(a.taskStates().values()).allSatisfy(s -> {
            assertThat(s.state()).isEqualTo(TaskLifeState.DEAD);
            assertThat(s.failed()).isFalse();
        });
        assertThat(types(a.taskStates().get("web"))).containsExactly(TaskEventType.RECEIVED,
                TaskEventType.TASK_SETUP, TaskEventType.STARTED, TaskEventType.TERMINATED);
    }

    @Test
    void poststartWaitsForEveryMainTaskToRun() {
        AllocationState a = engine().run(TestJobs.batch(
                task("slowstart").cfg("start_block_for", "300ms").runFor("1s"),
                task("web").runFor("2s"),
                task("notify").poststart().runFor("10ms")));
        assertThat(at(a, "notify", TaskEventType.STARTED)).isEqualTo(300);
    }

    @Test
    void leaderDeathStopsLeaderThenOtherMainThenSidecarsInReverseDeclarationOrder() {
        RecordingDriver driver = new RecordingDriver(new MockDriver());
        AllocationState a = new VirtualEngine(dataDir, driver).run(TestJobs.batch(
                task("side1").prestartSidecar().runFor("1h"),
                task("side2").poststartSidecar().runFor("1h"),
                task("leader").leader().runFor("100ms"),
                task("main2").runFor("1h").cfg("kill_after", "2s"),
                task("main3").runFor("1h")));

        assertThat(at(a, "main2", TaskEventType.LEADER_DEAD)).isEqualTo(100);
        assertThat(at(a, "main2", TaskEventType.KILLING)).isEqualTo(100);
        assertThat(at(a, "main3", TaskEventType.KILLING)).isEqualTo(100);
        assertThat(at(a, "main2", TaskEventType.TERMINATED)).isEqualTo(2100);
        // sidecars only once every other main task is dead
        assertThat(at(a, "side1", TaskEventType.KILLING)).isEqualTo(2100);
        assertThat(at(a, "side2", TaskEventType.KILLING)).isEqualTo(2100);
        // within a stage, reverse declaration order
        assertThat(driver.calls.stream().filter(c -> c.startsWith("SIGINT"))).containsExactly(
                "SIGINT main3", "SIGINT main2", "SIGINT side2", "SIGINT side1");
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    @Test
    void killSignalEscalatesToSigkillAfterKillTimeout() {
        VirtualEngine v = engine();
        String id = v.engine.submit(TestJobs.batch(task("stubborn").runFor("1h").cfg("ignore_signals", true)
                .killTimeout(Duration.ofSeconds(3)).killSignal("SIGTERM"))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("stubborn").state()
                == TaskLifeState.RUNNING, Duration.ofMinutes(1));
        v.timers.advance(Duration.ofSeconds(10));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        TaskEvent killing = first(a, "stubborn", TaskEventType.KILLING).orElseThrow();
        assertThat(killing.displayMessage()).isEqualTo("Sent interrupt. Waiting 3s before force killing");
        assertThat(killing.taskSignal()).isEqualTo("SIGTERM");
        TaskEvent terminated = first(a, "stubborn", TaskEventType.TERMINATED).orElseThrow();
        assertThat(VirtualEngine.ms(terminated) - VirtualEngine.ms(killing)).isEqualTo(3000);
        assertThat(terminated.signal()).isEqualTo(9);
        assertThat(terminated.displayMessage()).isEqualTo("Exit Code: 137, Signal: 9");
        assertThat(types(a.taskStates().get("stubborn"))).endsWith(TaskEventType.KILLING, TaskEventType.TERMINATED,
                TaskEventType.KILLED);
        assertThat(a.taskStates().get("stubborn").failed()).isFalse();
    }

    @Test
    void maxKillTimeoutCapsTheTasksKillTimeout() {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver(), Duration.ofSeconds(30));
        String id = v.engine.submit(TestJobs.batch(task("stubborn").runFor("1h").cfg("ignore_signals", true)
                .killTimeout(Duration.ofMinutes(5)))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().clientStatus() == ClientStatus.RUNNING,
                Duration.ofMinutes(1));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofHours(1));
        AllocationState a = v.engine.terminal(id).join();
        assertThat(at(a, "stubborn", TaskEventType.TERMINATED) - at(a, "stubborn", TaskEventType.KILLING))
                .isEqualTo(30_000);
    }

    @Test
    void failedPrestartFailsTheAllocationAndPoststopStillRuns() {
        AllocationState a = engine().run(TestJobs.batch(
                task("init").prestart().runFor("10ms").cfg("exit_code", 1).restart(TestJobs.NO_RESTARTS),
                task("web").runFor("1s"),
                task("cleanup").poststop().runFor("10ms")));

        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        TaskState init = a.taskStates().get("init");
        assertThat(init.failed()).isTrue();
        assertThat(first(a, "init", TaskEventType.NOT_RESTARTING).orElseThrow().displayMessage())
                .isEqualTo("Policy allows no restarts");
        TaskState web = a.taskStates().get("web");
        assertThat(web.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(web.startedAt()).isNull();
        assertThat(first(a, "web", TaskEventType.SIBLING_FAILED).orElseThrow().displayMessage())
                .isEqualTo("Task's sibling \"init\" failed");
        assertThat(at(a, "cleanup", TaskEventType.STARTED)).isEqualTo(10);
        assertThat(a.taskStates().get("cleanup").state()).isEqualTo(TaskLifeState.DEAD);
    }

    @Test
    void failingMainTaskIsRestartedPerPolicyThenFailsTheAllocation() {
        RestartPolicy twice = new RestartPolicy(2, Duration.ofMinutes(1), Duration.ofMillis(100), RestartMode.FAIL);
        AllocationState a = engine().run(TestJobs.batch(
                task("web").runFor("50ms").cfg("exit_code", 1).restart(twice),
                task("cleanup").poststop().runFor("10ms")));

        TaskState web = a.taskStates().get("web");
        assertThat(all(a, "web", TaskEventType.STARTED)).extracting(VirtualEngine::ms).containsExactly(0L, 150L, 300L);
        assertThat(all(a, "web", TaskEventType.RESTARTING)).extracting(TaskEvent::displayMessage)
                .containsOnly("Task restarting in 100ms");
        assertThat(web.restarts()).isEqualTo(2);
        assertThat(web.failed()).isTrue();
        assertThat(first(a, "web", TaskEventType.NOT_RESTARTING).orElseThrow().displayMessage())
                .isEqualTo("Exceeded allowed attempts 2 in interval 1m0s and mode is \"fail\"");
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        assertThat(a.taskStates().get("cleanup").failed()).isFalse();
    }

    @Test
    void serviceTaskThatExitsSuccessfullyIsRestarted() {
        RestartPolicy once = new RestartPolicy(1, Duration.ofMinutes(1), Duration.ofMillis(10), RestartMode.FAIL);
        AllocationState a = engine().run(TestJobs.job(JobType.SERVICE, 1,
                task("web").runFor("50ms").restart(once)));
        assertThat(all(a, "web", TaskEventType.STARTED)).hasSize(2);
        assertThat(a.taskStates().get("web").failed()).isTrue();
    }

    /**
     * Found by the lifecycle property (testkit): in a service job, prestart and poststart tasks that are not
     * sidecars, and poststop tasks, were restarted after a successful exit like main tasks, so a service job's
     * init task ran attempts + 1 times and then failed the allocation. As in Nomad's restart tracker, only main
     * tasks and sidecars of a service job restart on success.
     */
    @Test
    void serviceJobRunsItsPrestartPoststartAndPoststopTasksOnce() {
        RestartPolicy twice = new RestartPolicy(2, Duration.ofMinutes(30), Duration.ofMillis(10), RestartMode.FAIL);
        VirtualEngine v = engine();
        String id = v.engine.submit(TestJobs.job(JobType.SERVICE, 1,
                task("init").prestart().runFor("10ms").restart(twice),
                task("web").runFor("1h").restart(twice),
                task("notify").poststart().runFor("10ms").restart(twice),
                task("cleanup").poststop().runFor("10ms").restart(twice))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("notify").state()
                == TaskLifeState.DEAD, Duration.ofMinutes(1));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        for (String task : List.of("init", "notify", "cleanup")) {
            assertThat(all(a, task, TaskEventType.STARTED)).as(task).hasSize(1);
            assertThat(a.taskStates().get(task).failed()).as(task).isFalse();
        }
        assertThat(at(a, "web", TaskEventType.STARTED)).isEqualTo(10);
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    @Test
    void shutdownDelayWaitsBeforeTheKillSignal() {
        AllocationState a = engine().run(TestJobs.batch(
                task("proxy").prestartSidecar().runFor("1h").shutdownDelay(Duration.ofSeconds(2)),
                task("web").runFor("100ms")));
        assertThat(at(a, "proxy", TaskEventType.WAITING_SHUTDOWN_DELAY)).isEqualTo(100);
        assertThat(at(a, "proxy", TaskEventType.KILLING)).isEqualTo(2100);
    }

    @Test
    void maxRuntimeKillsTheRunAndFailsTheTaskWithoutRestart() {
        AllocationState a = engine().run(TestJobs.batch(
                task("web").runFor("1h").maxRuntime(Duration.ofSeconds(30)).killTimeout(Duration.ofSeconds(1))
                        .cfg("ignore_signals", true)));
        TaskEvent exceeded = first(a, "web", TaskEventType.MAX_RUNTIME_EXCEEDED).orElseThrow();
        assertThat(VirtualEngine.ms(exceeded)).isEqualTo(30_000);
        assertThat(exceeded.details()).containsEntry("max_runtime", "30s").containsEntry("run_time", "30s");
        assertThat(first(a, "web", TaskEventType.KILLING).orElseThrow().displayMessage())
                .isEqualTo("Killing task: exceeded max_runtime of 30s");
        assertThat(at(a, "web", TaskEventType.TERMINATED)).isEqualTo(31_000);
        assertThat(all(a, "web", TaskEventType.STARTED)).hasSize(1);
        assertThat(a.taskStates().get("web").failed()).isTrue();
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
    }

    @Test
    void unrecoverableStartErrorIsADriverFailureAndFailsTheTask() {
        AllocationState a = engine().run(TestJobs.batch(
                task("web").cfg("start_error", "no such thing").cfg("start_error_recoverable", false)));
        assertThat(first(a, "web", TaskEventType.DRIVER_FAILURE).orElseThrow().displayMessage())
                .isEqualTo("no such thing");
        assertThat(first(a, "web", TaskEventType.NOT_RESTARTING).orElseThrow().displayMessage())
                .isEqualTo("Error was unrecoverable");
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
    }

    @Test
    void runtimeVariablesAreInterpolatedAndPoststopLearnsTheResult() throws Exception {
        AllocationState a = engine().run(TestJobs.batch(
                task("web").runFor("10ms").cfg("stdout_string", "task=${NOMAD_TASK_NAME} alloc=${NOMAD_ALLOC_INDEX}"),
                task("cleanup").poststop().runFor("10ms").cfg("stdout_string", "${DROVER_ALLOC_RESULT}")));
        Path logs = dataDir.resolve("alloc").resolve(a.id()).resolve("alloc").resolve("logs");
        assertThat(Files.readString(logs.resolve("web.stdout.0"))).isEqualTo("task=web alloc=0");
        assertThat(Files.readString(logs.resolve("cleanup.stdout.0"))).isEqualTo("success");
        String results = Files.readString(logs.getParent().resolve("results.json"));
        assertThat(results).contains("\"web\"").contains("\"ExitCode\" : 0");
        assertThat(Files.isDirectory(dataDir.resolve("alloc").resolve(a.id()).resolve("web").resolve("secrets")))
                .isTrue();
    }

    @Test
    void everyPublishedSnapshotKeepsEveryEarlierEventAndNoStateIsBlank() {
        VirtualEngine v = engine();
        v.run(TestJobs.batch(
                task("init").prestart().runFor("50ms"),
                task("web").runFor("100ms").cfg("exit_code", 1),
                task("cleanup").poststop().runFor("20ms")));
        assertThat(v.published).isNotEmpty();
        for (int i = 1; i < v.published.size(); i++) {
            AllocationState before = v.published.get(i - 1);
            AllocationState after = v.published.get(i);
            before.taskStates().forEach((name, s) -> {
                List<TaskEvent> later = after.taskStates().get(name).events();
                assertThat(later.subList(0, s.events().size())).isEqualTo(s.events());
            });
            after.taskStates().values().forEach(s -> assertThat(s.state()).isNotNull());
        }
    }

    /**
     * Found by the lifecycle property (testkit): a stop while a prestart task ran marked the not-yet-started
     * main task dead before the stop plan was made, and the re-evaluation that death triggered saw no stage left,
     * started the poststop tasks and ended the allocation while the prestart task was still being killed.
     */
    @Test
    void stopDuringPrestartEndsTheAllocationOnlyAfterThePrestartTaskDied() {
        VirtualEngine v = engine();
        String id = v.engine.submit(TestJobs.batch(
                task("main").leader().runFor("1s"),
                task("init").prestart().runFor("1h").shutdownDelay(Duration.ofMillis(30)),
                task("cleanup").poststop().runFor("10ms"))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("init").state()
                == TaskLifeState.RUNNING, Duration.ofMinutes(1));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(1));
        AllocationState a = v.engine.terminal(id).join();

        assertThat(a.taskStates().values()).allMatch(s -> s.state() == TaskLifeState.DEAD);
        assertThat(first(a, "main", TaskEventType.STARTED)).isEmpty();
        assertThat(at(a, "init", TaskEventType.KILLED)).isEqualTo(30);
        assertThat(at(a, "cleanup", TaskEventType.STARTED)).isEqualTo(30);
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
    }

    /**
     * Found by the lifecycle property (testkit): a task whose stop had begun (a sibling failed) and that was
     * waiting out its shutdown_delay ignored its max_runtime, so its run outlived max_runtime + kill_timeout.
     * max_runtime now cuts the shutdown delay short, as it does for a running task.
     */
    @Test
    void maxRuntimeCutsAShutdownDelayShort() {
        AllocationState a = engine().run(TestJobs.batch(
                task("main").runFor("0s").restart(TestJobs.NO_RESTARTS),
                task("pre0").prestart().runFor("50ms").maxRuntime(Duration.ofMillis(40))
                        .killTimeout(Duration.ZERO).restart(TestJobs.NO_RESTARTS),
                task("pre1").prestart().runFor("50ms").maxRuntime(Duration.ofMillis(40))
                        .shutdownDelay(Duration.ofMillis(30)).killTimeout(Duration.ZERO)
                        .restart(TestJobs.NO_RESTARTS)));

        assertThat(at(a, "pre1", TaskEventType.SIBLING_FAILED)).isEqualTo(40);
        assertThat(at(a, "pre1", TaskEventType.MAX_RUNTIME_EXCEEDED)).isEqualTo(40);
        assertThat(at(a, "pre1", TaskEventType.KILLING)).isEqualTo(40);
        assertThat(at(a, "pre1", TaskEventType.TERMINATED)).isEqualTo(40);
        assertThat(a.taskStates().get("pre1").failed()).isTrue();
    }

    private static List<TaskEventType> types(TaskState s) {
        return s.events().stream().map(TaskEvent::type).toList();
    }
}
