package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import io.drover.plugins.mock.MockDriver;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a poststop task learns (product.md §2): {@code DROVER_ALLOC_RESULT} is {@code success} when every main task
 * succeeded — it ran and is not failed — else {@code failed}; {@code DROVER_FAILED_TASKS} names every failed task,
 * hooks and sidecars included.
 */
class AllocResultTest {
    private static final String REPORT = "${DROVER_ALLOC_RESULT} failed=${DROVER_FAILED_TASKS}";

    @TempDir
    Path dataDir;

    @Test
    void aFailedHookDoesNotMakeAMainTaskThatSucceededFail() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(TestJobs.batch(
                task("setup").prestart().runFor("10ms"),
                task("web").runFor("100ms"),
                task("notify").poststart().runFor("10ms").cfg("exit_code", 1),
                task("cleanup").poststop().runFor("10ms").cfg("stdout_string", REPORT)));
        assertThat(a.taskStates().get("notify").failed()).isTrue();
        assertThat(a.taskStates().get("web").failed()).isFalse();
        assertThat(poststopSaw(a)).isEqualTo("success failed=notify");
    }

    @Test
    void aFailedMainTaskFails() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(TestJobs.batch(
                task("web").runFor("10ms").cfg("exit_code", 2),
                task("cleanup").poststop().runFor("10ms").cfg("stdout_string", REPORT)));
        assertThat(poststopSaw(a)).isEqualTo("failed failed=web");
    }

    @Test
    void aMainTaskThatNeverRanDidNotSucceed() throws Exception {
        AllocationState a = new VirtualEngine(dataDir, new MockDriver()).run(TestJobs.batch(
                task("setup").prestart().runFor("10ms").cfg("exit_code", 1),
                task("web").runFor("10ms"),
                task("cleanup").poststop().runFor("10ms").cfg("stdout_string", REPORT)));
        assertThat(a.taskStates().get("web").startedAt()).isNull();
        assertThat(poststopSaw(a)).isEqualTo("failed failed=setup");
    }

    @Test
    void aMainTaskStoppedByTheUserIsNotFailed() throws Exception {
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());
        String id = v.engine.submit(TestJobs.batch(
                task("web").runFor("1h"),
                task("cleanup").poststop().runFor("10ms").cfg("stdout_string", REPORT))).get(0).id();
        v.runUntil(() -> v.engine.allocation(id).orElseThrow().taskStates().get("web").startedAt() != null,
                Duration.ofMinutes(1));
        v.engine.stop(id);
        v.runUntil(() -> v.engine.terminal(id).isDone(), Duration.ofMinutes(5));
        assertThat(poststopSaw(v.engine.terminal(id).join())).isEqualTo("success failed=");
    }

    private String poststopSaw(AllocationState a) throws IOException {
        return Files.readString(dataDir.resolve("alloc").resolve(a.id()).resolve("alloc").resolve("logs")
                .resolve("cleanup.stdout.0"));
    }
}
