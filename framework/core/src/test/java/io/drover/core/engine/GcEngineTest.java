package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static io.drover.core.engine.VirtualEngine.all;
import static io.drover.core.engine.VirtualEngine.at;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.ClientConfig;
import io.drover.core.config.GcKillPolicy;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.gc.DiskProbe;
import io.drover.core.gc.DiskUsage;
import io.drover.core.gc.GarbageCollector;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client GC on the engine with the mock driver under the virtual clock: every trigger, both kill policies and
 * gc_kill, stop under each policy, parallel destroys, record retention. No sleeps: work is drained, time moves
 * timer by timer.
 */
class GcEngineTest {
    @TempDir
    Path dataDir;

    private VirtualEngine ve;
    private GarbageCollector gc;
    private final List<String> purged = new ArrayList<>();
    private DiskUsage disk = DiskUsage.UNKNOWN;

    private void start(GcKillPolicy policy, int maxAllocs, int parallel) {
        start(policy, maxAllocs, parallel, null);
    }

    private void start(GcKillPolicy policy, int maxAllocs, int parallel, io.drover.core.store.StateStore store) {
        ve = new VirtualEngine(dataDir, new MockDriver(), Duration.ofSeconds(30), store, policy);
        ClientConfig client = new ClientConfig(Duration.ofMinutes(1), maxAllocs, 80, 70, parallel, policy,
                Duration.ofSeconds(30), Duration.ofHours(24));
        DiskProbe probe = dir -> disk;
        gc = new GarbageCollector(ve.engine, client, dataDir, probe, ve.timers, ve.executor, purged::add);
        gc.start();
    }

    /** The seed's job: a short main task and a poststop task. */
    private static Job seed(String poststopRunFor) {
        return TestJobs.batch(task("test-task").runFor("10ms"), task("poststop").poststop().runFor(poststopRunFor));
    }

    private AllocationState now(String id) {
        return ve.engine.allocation(id).orElseThrow();
    }

    private void settle() {
        ve.runUntil(() -> gc.busy() == 0, Duration.ofMinutes(1));
    }

    @Test
    void theSeedReplayed_gcKeepsEveryStateAndEventAndAddsGarbageCollected() {
        start(GcKillPolicy.PRESERVE_STATES, 1, 2);
        AllocationState before = ve.run(seed("10ms"));
        ve.awaitDurable(before);
        assertThat(Files.isDirectory(dataDir.resolve("alloc").resolve(before.id()))).isTrue();

        ve.engine.submit(TestJobs.batch(task("other").runFor("10ms")));
        settle();

        AllocationState after = now(before.id());
        assertThat(after.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(after.taskStates().keySet()).containsExactly("test-task", "poststop");
        for (String t : List.of("test-task", "poststop")) {
            TaskState b = before.taskStates().get(t);
            TaskState a = after.taskStates().get(t);
            assertThat(a.state()).isEqualTo(TaskLifeState.DEAD);
            assertThat(a.startedAt()).isNotNull().isEqualTo(b.startedAt());
            assertThat(a.finishedAt()).isEqualTo(b.finishedAt());
            assertThat(a.failed()).isEqualTo(b.failed());
            assertThat(a.events().subList(0, b.events().size())).isEqualTo(b.events());
            assertThat(a.events()).hasSize(b.events().size() + 1);
            TaskEvent gcEvent = a.events().get(a.events().size() - 1);
            assertThat(gcEvent.type()).isEqualTo(TaskEventType.GARBAGE_COLLECTED);
            assertThat(gcEvent.details()).containsEntry("gc_trigger", "max allocs")
                    .containsEntry("gc_kill_policy", "preserve_states");
            assertThat(gcEvent.displayMessage()).contains("max allocs", "preserve_states");
        }
        assertThat(after.destroyedAt()).isPositive();
        assertThat(dataDir.resolve("alloc").resolve(before.id())).doesNotExist();
        assertThat(dataDir.resolve("gc-trash")).isEmptyDirectory();
        assertThat(gc.destroyedCount()).isEqualTo(1);
    }

    @Test
    void preserveStates_aRunningPoststopKeepsItsAllocationOutOfGc_theIntervalTakesTheTerminalOneInstead() {
        start(GcKillPolicy.PRESERVE_STATES, 1, 2);
        String first = ve.engine.submit(seed("5m")).get(0).id();
        ve.runUntil(() -> now(first).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(1));

        String second = ve.engine.submit(TestJobs.batch(task("other").runFor("10ms"))).get(0).id();
        ve.runUntil(() -> now(second).terminal(), Duration.ofSeconds(1));

        AllocationState kept = now(first);
        assertThat(kept.destroyedAt()).isEqualTo(-1);
        assertThat(kept.taskStates().get("poststop").state()).isEqualTo(TaskLifeState.RUNNING);

        ve.runUntil(() -> now(second).destroyedAt() >= 0, Duration.ofMinutes(2));
        assertThat(lastEvent(now(second), "other").details()).containsEntry("gc_trigger", "interval");
        assertThat(now(first).destroyedAt()).as("still live: never picked").isEqualTo(-1);

        ve.runUntil(() -> now(first).terminal(), Duration.ofMinutes(10));
        gc.collectNow();
        settle();
        AllocationState after = now(first);
        assertThat(all(after, "poststop", TaskEventType.KILLING)).isEmpty();
        assertThat(after.taskStates().get("poststop").events()).extracting(TaskEvent::type)
                .containsExactly(TaskEventType.RECEIVED, TaskEventType.TASK_SETUP, TaskEventType.STARTED,
                        TaskEventType.TERMINATED, TaskEventType.GARBAGE_COLLECTED);
        assertThat(at(after, "poststop", TaskEventType.TERMINATED) - at(after, "poststop", TaskEventType.STARTED))
                .isEqualTo(300_000);
        assertThat(lastEvent(after, "poststop").details()).containsEntry("gc_trigger", "manual");
    }

    @Test
    void killPoststop_gcKillsAStubbornPoststopWithEscalationThenCollectsIt_placementDoesNotWait() {
        start(GcKillPolicy.KILL_POSTSTOP, 1, 2);
        Job job = TestJobs.batch(task("test-task").runFor("10ms"), task("poststop").poststop().runFor("1h")
                .cfg("ignore_signals", true).killTimeout(Duration.ofSeconds(2)).killSignal("SIGTERM"));
        String first = ve.engine.submit(job).get(0).id();
        ve.runUntil(() -> now(first).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(1));
        long poststopStarted = at(now(first), "poststop", TaskEventType.STARTED);

        String second = ve.engine.submit(TestJobs.batch(task("other").runFor("10ms"))).get(0).id();
        ve.runUntil(() -> now(second).terminal(), Duration.ofSeconds(1));
        assertThat(gc.busy()).as("placement did not wait: the destroy still waits for the kill timeout")
                .isEqualTo(1);

        settle();
        AllocationState after = now(first);
        assertThat(after.clientStatus()).isEqualTo(ClientStatus.COMPLETE);
        TaskState poststop = after.taskStates().get("poststop");
        assertThat(poststop.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(poststop.events()).extracting(TaskEvent::type).containsExactly(TaskEventType.RECEIVED,
                TaskEventType.TASK_SETUP, TaskEventType.STARTED, TaskEventType.KILLING, TaskEventType.TERMINATED,
                TaskEventType.KILLED, TaskEventType.GARBAGE_COLLECTED);
        TaskEvent killing = all(after, "poststop", TaskEventType.KILLING).get(0);
        assertThat(killing.details()).containsEntry("kill_signal", "SIGTERM").containsEntry("kill_timeout", "2s");
        assertThat(killing.displayMessage()).contains("garbage collected (max allocs)", "kill_poststop");
        assertThat(all(after, "poststop", TaskEventType.TERMINATED).get(0).signal()).isEqualTo(9);
        assertThat(at(after, "poststop", TaskEventType.KILLED) - at(after, "poststop", TaskEventType.KILLING))
                .isEqualTo(2000);
        assertThat(at(after, "poststop", TaskEventType.KILLING)).isGreaterThanOrEqualTo(poststopStarted);
        assertThat(lastEvent(after, "test-task").details()).containsEntry("gc_trigger", "max allocs")
                .containsEntry("gc_kill_policy", "kill_poststop");
    }

    @Test
    void gcKillTrueOverridesPreserveStates_andGcKillFalseOverridesKillPoststop() {
        start(GcKillPolicy.PRESERVE_STATES, 1, 2);
        String first = ve.engine.submit(TestJobs.batch(task("m").runFor("10ms"),
                task("poststop").poststop(true).runFor("1h"))).get(0).id();
        ve.runUntil(() -> now(first).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(1));
        ve.engine.submit(TestJobs.batch(task("other").runFor("10ms")));
        settle();
        assertThat(now(first).destroyedAt()).isPositive();
        assertThat(lastEvent(now(first), "poststop").details()).containsEntry("gc_kill", "true");
        assertThat(all(now(first), "poststop", TaskEventType.KILLING).get(0).displayMessage())
                .contains("lifecycle gc_kill = true");

        start(GcKillPolicy.KILL_POSTSTOP, 1, 2);
        String kept = ve.engine.submit(TestJobs.batch(task("m").runFor("10ms"),
                task("poststop").poststop(false).runFor("1h"))).get(0).id();
        ve.runUntil(() -> now(kept).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(1));
        ve.engine.submit(TestJobs.batch(task("other").runFor("10ms")));
        settle();
        assertThat(now(kept).destroyedAt()).isEqualTo(-1);
        assertThat(now(kept).taskStates().get("poststop").state()).isEqualTo(TaskLifeState.RUNNING);
    }

    @Test
    void stopUnderPreserveStatesLetsARunningPoststopFinish() {
        start(GcKillPolicy.PRESERVE_STATES, 50, 2);
        String id = ve.engine.submit(seed("30s")).get(0).id();
        ve.runUntil(() -> now(id).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(1));

        ve.engine.stop(id);
        ve.runUntil(() -> now(id).terminal(), Duration.ofMinutes(1));

        AllocationState a = now(id);
        assertThat(all(a, "poststop", TaskEventType.KILLING)).isEmpty();
        assertThat(at(a, "poststop", TaskEventType.TERMINATED) - at(a, "poststop", TaskEventType.STARTED))
                .isEqualTo(30_000);
    }

    @Test
    void stopUnderKillPoststopKillsARunningPoststop_aStopBeforePoststopLetsItStart() {
        start(GcKillPolicy.KILL_POSTSTOP, 50, 2);
        String id = ve.engine.submit(TestJobs.batch(task("m").runFor("1h"),
                task("poststop").poststop().runFor("1h").killTimeout(Duration.ofSeconds(1)))).get(0).id();
        ve.runUntil(() -> now(id).taskStates().get("m").state() == TaskLifeState.RUNNING, Duration.ofSeconds(1));

        ve.engine.stop(id);
        ve.runUntil(() -> now(id).taskStates().get("poststop").state() == TaskLifeState.RUNNING,
                Duration.ofSeconds(5));
        assertThat(all(now(id), "poststop", TaskEventType.KILLING)).as("a stop before poststop lets it start")
                .isEmpty();

        ve.engine.stop(id);
        ve.runUntil(() -> now(id).terminal(), Duration.ofMinutes(1));
        AllocationState a = now(id);
        assertThat(a.taskStates().get("poststop").events()).extracting(TaskEvent::type)
                .containsSubsequence(TaskEventType.STARTED, TaskEventType.KILLING, TaskEventType.TERMINATED,
                        TaskEventType.KILLED);
        assertThat(all(a, "poststop", TaskEventType.KILLING).get(0).displayMessage())
                .contains("allocation stopped", "kill_poststop");
    }

    @Test
    void systemGcDestroysEveryTerminalAllocation_atMostParallelDestroysAtATime() {
        start(GcKillPolicy.PRESERVE_STATES, 50, 2);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(ve.run(TestJobs.batch(task("m").runFor("10ms"))).id());
        }
        String live = ve.engine.submit(TestJobs.batch(task("m").runFor("1h"))).get(0).id();
        ve.settle();

        gc.collectNow();
        settle();

        for (String id : ids) {
            assertThat(lastEvent(now(id), "m").details()).containsEntry("gc_trigger", "manual");
        }
        assertThat(now(live).destroyedAt()).isEqualTo(-1);
        assertThat(gc.destroyedCount()).isEqualTo(5);
        assertThat(gc.maxParallelSeen()).isEqualTo(2);
    }

    @Test
    void diskAndInodeThresholdsAreCheckedEveryInterval() {
        start(GcKillPolicy.PRESERVE_STATES, 50, 2);
        String a = ve.run(TestJobs.batch(task("m").runFor("10ms"))).id();
        String b = ve.run(TestJobs.batch(task("m").runFor("10ms"))).id();
        disk = new DiskUsage(1000, 999, 0, 0);

        ve.runUntil(() -> now(a).destroyedAt() >= 0 && now(b).destroyedAt() >= 0, Duration.ofMinutes(2));
        assertThat(lastEvent(now(a), "m").details()).containsEntry("gc_trigger", "disk");

        String c = ve.run(TestJobs.batch(task("m").runFor("10ms"))).id();
        disk = new DiskUsage(0, 0, 1000, 999);
        ve.runUntil(() -> now(c).destroyedAt() >= 0, Duration.ofMinutes(2));
        assertThat(lastEvent(now(c), "m").details()).containsEntry("gc_trigger", "inodes");
    }

    @Test
    void manyPlacements_eachKeptRecordIsDestroyedOnce_andEveryLaterPassSkipsIt() {
        start(GcKillPolicy.PRESERVE_STATES, 2, 2);
        List<AllocationState> runs = new ArrayList<>();
        for (int i = 0; i < 12; i++) { // every placement runs a pass over all the kept records
            runs.add(ve.run(TestJobs.batch(task("t" + i).runFor("10ms"))));
            settle();
        }
        // each run made room for the next: 10 destroyed (two kept), each with one Garbage Collected event
        assertThat(gc.destroyedCount()).isEqualTo(10);
        for (int i = 0; i < runs.size(); i++) {
            AllocationState a = now(runs.get(i).id());
            long gcEvents = a.taskStates().get("t" + i).events().stream()
                    .filter(e -> e.type() == TaskEventType.GARBAGE_COLLECTED).count();
            assertThat(gcEvents).as(a.id()).isEqualTo(i < 10 ? 1 : 0);
        }
        ve.engine.submit(TestJobs.batch(task("last").runFor("10ms")));
        settle();
        assertThat(gc.destroyedCount()).as("only the oldest record not yet destroyed").isEqualTo(11);
        assertThat(now(runs.get(10).id()).destroyedAt()).isPositive();
        assertThat(now(runs.get(11).id()).destroyedAt()).isEqualTo(-1);
    }

    @Test
    void recordsArePurgedRecordRetentionAfterTheirGc_fromTheEngineAndTheStore() throws Exception {
        try (JournalStore store = JournalStore.open(dataDir.resolve("state"))) {
            start(GcKillPolicy.PRESERVE_STATES, 1, 2, store);
            AllocationState first = ve.run(seed("10ms"));
            ve.engine.submit(TestJobs.batch(task("other").runFor("10ms")));
            settle();
            long gcAt = now(first.id()).destroyedAt();
            assertThat(gcAt).isPositive();

            ve.runUntil(() -> ve.timers.now().isAfter(io.drover.core.time.Nanos.toInstant(gcAt)
                    .plus(Duration.ofHours(23))), Duration.ofDays(1));
            assertThat(ve.engine.allocation(first.id())).as("kept within record_retention").isPresent();

            ve.runUntil(() -> ve.engine.allocation(first.id()).isEmpty(), Duration.ofHours(2));
            assertThat(purged).containsExactly(first.id());
            ve.settle();
        }
        try (JournalStore reopened = JournalStore.open(dataDir.resolve("state"))) {
            assertThat(reopened.load()).extracting(AllocationState::id).containsExactly("alloc-0002");
        }
    }

    private static TaskEvent lastEvent(AllocationState a, String task) {
        List<TaskEvent> events = a.taskStates().get(task).events();
        return events.get(events.size() - 1);
    }

    @SuppressWarnings("unused")
    private static Map<String, TaskState> states(AllocationState a) {
        return a.taskStates();
    }
}
