package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.artifact.ArtifactException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dispatch payload file stays inside the task's {@code local/} directory and never follows a link a task
 * could have planted there (issue 12's rule for every path from job content).
 */
class DispatchPayloadHookTest {
    @TempDir
    Path task;

    @TempDir
    Path outside;

    private Path local() throws Exception {
        return Files.createDirectories(task.resolve("local"));
    }

    @Test
    void thePayloadIsWrittenInANestedDirectoryOfLocal() throws Exception {
        DispatchPayloadHook.write(local(), "in/deep/payload.json", "{}".getBytes(StandardCharsets.UTF_8));
        assertThat(task.resolve("local/in/deep/payload.json")).hasContent("{}");
    }

    @Test
    void aLinkPlantedAtTheFilesPlaceIsReplacedNotWrittenThrough() throws Exception {
        Path target = Files.writeString(outside.resolve("victim"), "keep");
        Files.createSymbolicLink(local().resolve("in.txt"), target);
        DispatchPayloadHook.write(local(), "in.txt", "new".getBytes(StandardCharsets.UTF_8));
        assertThat(target).hasContent("keep");
        assertThat(Files.isSymbolicLink(task.resolve("local/in.txt"))).isFalse();
        assertThat(task.resolve("local/in.txt")).hasContent("new");
    }

    @Test
    void aLinkPlantedAsADirectoryOnTheWayIsRefused() throws Exception {
        Files.createSymbolicLink(local().resolve("in"), outside);
        assertThatThrownBy(() -> DispatchPayloadHook.write(local(), "in/payload", new byte[] {1}))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("symbolic link");
        assertThat(outside).isEmptyDirectory();
    }

    @Test
    void aLocalDirectoryReplacedByALinkIsRefused() throws Exception {
        Files.createSymbolicLink(task.resolve("local"), outside);
        assertThatThrownBy(() -> DispatchPayloadHook.write(task.resolve("local"), "payload", new byte[] {1}))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("symbolic link");
        assertThat(outside).isEmptyDirectory();
    }

    @Test
    void aFileThatLeavesLocalIsRefused() throws Exception {
        assertThatThrownBy(() -> DispatchPayloadHook.write(local(), "../secrets/x", new byte[] {1}))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("leaves local");
        assertThat(Files.exists(task.resolve("secrets/x"), LinkOption.NOFOLLOW_LINKS)).isFalse();
    }
}
