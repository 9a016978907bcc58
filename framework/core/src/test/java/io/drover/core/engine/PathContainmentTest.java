package io.drover.core.engine;

import static io.drover.core.engine.TestJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.TaskLifeState;
import io.drover.core.state.TaskState;
import io.drover.plugins.mock.MockDriver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12, findings 1 and 7, in the engine (defence in depth, independent of the parser): a task whose name
 * would put its directory or logs outside its allocation directory — an absolute path, {@code ../..}, {@code ..},
 * a NUL, a lone surrogate — is never given a path: it fails with a {@code Setup Failure} event naming the
 * problem, nothing is created outside, and the allocation ends failed (its other tasks, poststop included, run)
 * instead of wedging. Job objects are built directly, as a caller that bypasses the parser would.
 */
class PathContainmentTest {
    @TempDir
    Path dataDir;

    @TempDir
    Path outside;

    static Stream<Arguments> escapingNames() {
        return Stream.of(
                Arguments.of("absolute", "must not contain '/'"),
                Arguments.of("../../escape", "must not contain '/'"),
                Arguments.of("..", "must not be \"..\""),
                Arguments.of("a\u0000b", "must not contain a NUL character"),
                Arguments.of("a\ud800", "is not valid Unicode"),
                Arguments.of("alloc", "that is the allocation's shared directory"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("escapingNames")
    void aTaskNameThatLeavesTheAllocationDirFailsTheTaskWithAnEvent(String name, String problem) throws Exception {
        String taskName = name.equals("absolute") ? outside.resolve("planted").toString() : name;
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());

        AllocationState a = v.run(TestJobs.batch(
                task(taskName).runFor("10ms"),
                task("cleanup").poststop().runFor("10ms")));

        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        TaskState bad = a.taskStates().get(taskName);
        assertThat(bad.state()).isEqualTo(TaskLifeState.DEAD);
        assertThat(bad.failed()).isTrue();
        assertThat(bad.events()).extracting(TaskEvent::type)
                .containsExactly(TaskEventType.RECEIVED, TaskEventType.TASK_SETUP, TaskEventType.SETUP_FAILURE);
        TaskEvent failure = bad.events().get(2);
        assertThat(failure.failsTask()).isTrue();
        assertThat(failure.displayMessage()).startsWith("failed to build task directory: task name \"")
                .contains(problem);
        // the poststop task still ran, inside the allocation
        assertThat(a.taskStates().get("cleanup").events()).extracting(TaskEvent::type)
                .contains(TaskEventType.TERMINATED);
        // nothing was written outside the allocation directory
        assertThat(outside).isEmptyDirectory();
        assertThat(dataDir.resolve("escape")).doesNotExist();
        assertThat(dataDir.getParent().resolve("escape")).doesNotExist();
        try (Stream<Path> entries = Files.list(dataDir.resolve("alloc"))) {
            assertThat(entries.map(p -> p.getFileName().toString()).toList()).containsExactly(a.id());
        }
        try (Stream<Path> entries = Files.list(dataDir.resolve("alloc").resolve(a.id()))) {
            assertThat(entries.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("alloc", "cleanup");
        }
    }

    @Test
    void aTaskDirectoryPlantedAsASymlinkOutsideIsRefused() throws Exception {
        // the first allocation's id is alloc-0001 (VirtualEngine): plant its task directory as a link to outside
        Path allocDir = Files.createDirectories(dataDir.resolve("alloc").resolve("alloc-0001"));
        Files.createSymbolicLink(allocDir.resolve("web"), outside);
        VirtualEngine v = new VirtualEngine(dataDir, new MockDriver());

        AllocationState a = v.run(TestJobs.batch(task("web").runFor("10ms")));

        assertThat(a.id()).isEqualTo("alloc-0001");
        assertThat(a.clientStatus()).isEqualTo(ClientStatus.FAILED);
        TaskEvent last = a.taskStates().get("web").events().get(a.taskStates().get("web").events().size() - 1);
        assertThat(last.type()).isEqualTo(TaskEventType.SETUP_FAILURE);
        assertThat(last.displayMessage()).contains("resolves outside");
        assertThat(outside).isEmptyDirectory();
    }

    @Test
    void derivedPathsOfASafeNameStayDirectlyInsideTheirDirectories() throws Exception {
        AllocDirs dirs = AllocDirs.of(dataDir, "alloc-1");
        assertThat(dirs.task("web")).isEqualTo(dataDir.resolve("alloc/alloc-1/web"));
        assertThat(dirs.log("web", "stdout")).isEqualTo(dataDir.resolve("alloc/alloc-1/alloc/logs/web.stdout.0"));
        for (String bad : List.of("/etc", "..", ".", "a/b", "a\\b", "a\u0000", "", "alloc")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> dirs.task(bad))
                    .isInstanceOf(UnsafePathException.class).hasMessageStartingWith("task name \"");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> dirs.log(bad, "stdout"))
                    .isInstanceOf(UnsafePathException.class);
        }
    }
}
